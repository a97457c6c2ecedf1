// The spec quality gate: structural validation (swagger-cli), the house lint rules (redocly, see
// redocly.yaml) and the rules redocly cannot express (spec-house-rules.mjs), all with zero findings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runTool } from './run-tool.mjs';
import { checkHouseRules } from './spec-house-rules.mjs';
import { lintAsyncApi } from './asyncapi-lint.mjs';
import { readFileSync } from 'node:fs';

const spec = process.argv[2] ?? 'openapi/openapi.yaml';
runTool('swagger-cli', ['validate', spec]);
runTool('redocly', ['lint', spec, '--format', 'stylish', '--max-problems', '500']);
const scratch = mkdtempSync(path.join(tmpdir(), 'spec-lint-'));
try {
  const bundled = path.join(scratch, 'openapi.json');
  runTool('redocly', ['bundle', spec, '--ext', 'json', '-o', bundled], { quiet: true });
  const problems = checkHouseRules(JSON.parse(readFileSync(bundled, 'utf8')));
  for (const p of problems) console.error(`${spec}: ${p}`);
  if (problems.length > 0) {
    console.error(`❌ ${problems.length} house-rule problem(s)`);
    process.exit(1);
  }
  console.log('house rules: no problems');
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
// With no argument the gate covers both contracts; an argument lints that one OpenAPI file only.
if (process.argv[2] === undefined) await lintAsyncApi();
