// The spec quality gate: structural validation (swagger-parser, the library behind swagger-cli),
// the house lint rules (redocly, see redocly.yaml) and the rules redocly cannot express
// (spec-house-rules.mjs), all with zero findings.
//   node scripts/spec-lint.mjs                 openapi/openapi.yaml, then the AsyncAPI document
//   node scripts/spec-lint.mjs A.yaml B.yaml   each OpenAPI file named, one report per file
// Each report starts with a `── FILE` line and ends with `✓ FILE: no findings` or
// `❌ FILE: N finding(s)`; the exit status is 1 when any file has findings. redocly lints and
// bundles all the files in one run each, side by side, so the files named must have different
// names (each bundle is named after its file); swagger-parser validates them in this process
// meanwhile, where swagger-cli took a process of its own per file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REDOCLY_FINDING, root, toolOutput } from './run-tool.mjs';
import { checkHouseRules } from './spec-house-rules.mjs';

const named = process.argv.slice(2);
const specs = named.length > 0 ? named : ['openapi/openapi.yaml'];
const bundleName = (spec) => `${path.basename(spec, path.extname(spec))}.json`;
const clashing = specs.filter((spec, i) => specs.findIndex((other) => bundleName(other) === bundleName(spec)) !== i);
if (clashing.length > 0) {
  console.error(`spec-lint: the files named must have different names; these repeat one: ${clashing.join(', ')}`);
  process.exit(2);
}
const findings = new Map(specs.map((spec) => [spec, []]));
const sameFile = (a, b) => path.resolve(root, a) === path.resolve(root, b);
const specNamed = (printed) => specs.find((spec) => sameFile(spec, printed));

// redocly's lint and bundle, one run each for all the files, start first: they run beside the
// structural validation below.
const scratch = mkdtempSync(path.join(tmpdir(), 'spec-lint-'));
// With one file, redocly takes `-o` as the bundle's own path; with several, as their folder.
// `--force` bundles a file whose derived parts (scripts/redocly-derivation-plugin.mjs) found
// something written by hand: the lint reports it, and the house rules still apply.
const bundleOutput = specs.length === 1 ? path.join(scratch, bundleName(specs[0])) : scratch;
const linting = toolOutput('redocly', ['lint', ...specs, '--format', 'stylish', '--max-problems', '500']);
const bundling = toolOutput('redocly', ['bundle', ...specs, '--ext', 'json', '--force', '-o', bundleOutput]);

// 1. Structural validation against the OpenAPI schema, what `swagger-cli validate` does (and
// reports: the error's message), one file after the other in this process.
// Loaded here, not imported at the top, like the AsyncAPI half below: a run refused above loads
// neither, a run over named files not the AsyncAPI tools.
const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
for (const spec of specs) {
  try {
    await SwaggerParser.validate(path.resolve(root, spec));
  } catch (error) {
    findings.get(spec).push(`swagger-parser: ${error.message}`);
  }
}

// 2. redocly lint, one run for all: it prints `validating FILE...`, the findings in that file and
// the files it refers to (`line:col  error  rule  message`), then `FILE: validated in Nms`.
const lint = await linting;
let current;
let lines = [];
for (const line of lint.output.split('\n')) {
  const started = /^validating (.+)\.\.\.$/.exec(line);
  const ended = /^(.+): validated in \S+$/.exec(line);
  if (started) {
    current = specNamed(started[1]);
    lines = [];
  } else if (ended && current) {
    if (lines.some((l) => REDOCLY_FINDING.test(l))) findings.get(current).push(`redocly lint:\n${lines.join('\n')}`);
    current = undefined;
  } else if (current && line.trim() !== '') {
    lines.push(line);
  }
}
if (lint.status !== 0 && specs.every((spec) => findings.get(spec).length === 0)) {
  // Failed without a finding under any file: the run itself broke; it counts against each file.
  for (const spec of specs) findings.get(spec).push(`redocly lint failed (exit ${lint.status}):\n${lint.output.trim()}`);
}

// 3. redocly bundle, one run for all, then the house rules over each bundle.
try {
  const bundled = await bundling;
  for (const spec of specs) {
    let doc;
    try {
      doc = JSON.parse(readFileSync(path.join(scratch, bundleName(spec)), 'utf8'));
    } catch {
      findings.get(spec).push(`redocly bundle made no bundle of ${spec} (exit ${bundled.status}):\n${bundled.output.trim()}`);
      continue;
    }
    for (const problem of checkHouseRules(doc)) findings.get(spec).push(`${spec}: ${problem}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

for (const spec of specs) {
  const found = findings.get(spec);
  console.log(`── ${spec}`);
  for (const finding of found) console.log(finding);
  console.log(found.length === 0 ? `✓ ${spec}: no findings` : `❌ ${spec}: ${found.length} finding(s)`);
}
const failed = specs.some((spec) => findings.get(spec).length > 0);
// With no argument the gate covers both contracts.
if (named.length === 0 && !failed) await (await import('./asyncapi-lint.mjs')).lintAsyncApi();
process.exit(failed ? 1 : 0);
