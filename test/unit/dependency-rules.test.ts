import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPCRUISE = path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

function cruise(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [DEPCRUISE, 'src', 'packages', '--config', CONFIG, '--output-type', 'err'], { cwd, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }));
  });
}

/** A throwaway tree laid out like src/ and packages/, with the files given, for the rule to judge. */
function tree(files: Record<string, string>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-deps-'));
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('the layer rule of src/ and packages/ (npm run deps:check)', () => {
  // One throwaway tree holds every planted break, each in files of its own, and one run of the
  // rule judges them all; `npm run deps:check`, a gate of `npm test`, judges the code as it is.
  let planted: ReturnType<typeof tree>;
  let result: Awaited<ReturnType<typeof cruise>>;
  beforeAll(async () => {
    planted = tree({
      // The store reaching into the HTTP layer, and a cycle.
      'src/http/envelope.ts': 'export const envelope = 1;\n',
      'src/store/planted.ts': "import { envelope } from '../http/envelope.js';\nexport const planted = envelope;\n",
      'src/keys/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'src/keys/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
      // Code outside the store reaching the SQLite implementation or its driver.
      'src/store/sqlite/database.ts': 'export const db = 1;\n',
      'src/handlers/planted.ts': "import { db } from '../store/sqlite/database.js';\nexport const planted = db;\n",
      'src/keys/planted.ts': "import Database from 'better-sqlite3';\nexport const planted = Database;\n",
      // The checker borrowing the service's own code, and the contract library reaching up.
      'src/keys/secret-token.ts': 'export const token = 1;\n',
      'packages/contract-test/src/planted.ts': "import { token } from '../../../src/keys/secret-token.js';\nexport const planted = token;\n",
      'packages/contract/src/planted.ts': "import { planted } from '../../contract-test/src/planted.js';\nexport const reached = planted;\n",
      'packages/contract/src/reaches-service.ts': "import { envelope } from '../../../src/http/envelope.js';\nexport const reached = envelope;\n",
    });
    result = await cruise(planted.dir);
  }, 60_000);
  afterAll(() => planted?.cleanup());

  it('fails a planted upward import (the store reaching into the HTTP layer) and a cycle', () => {
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('store-imports-above: src/store/planted.ts → src/http/envelope.ts');
    expect(result.output).toMatch(/no-circular: src\/keys\/(a|b)\.ts → /);
  });

  it('fails code outside the store that reaches the SQLite implementation or its driver', () => {
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('database-outside-store: src/handlers/planted.ts → src/store/sqlite/database.ts');
    expect(result.output).toMatch(/database-outside-store: src\/keys\/planted\.ts → .*better-sqlite3/);
  });

  it('fails the checker importing the service, and the contract library importing the service or the checker', () => {
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('checker-imports-service: packages/contract-test/src/planted.ts → src/keys/secret-token.ts');
    expect(result.output).toContain('contract-imports-ours: packages/contract/src/planted.ts → packages/contract-test/src/planted.ts');
    expect(result.output).toContain('contract-imports-ours: packages/contract/src/reaches-service.ts → src/http/envelope.ts');
  });
});
