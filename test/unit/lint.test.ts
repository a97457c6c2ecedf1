import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ESLINT = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

/**
 * A throwaway project linted with this repository's eslint.config.js: a store interface as
 * src/store/interfaces/ declares them, and one file that calls it. Its compiler options name our
 * tsconfig.json's target and lib: TypeScript's default lib adds the DOM's declarations, which the
 * type-aware rules would parse for nothing (a third of the run's CPU).
 */
function project(caller: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-lint-'));
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, types: [] }, include: ['src'] }),
    'src/store/interfaces/accounts.ts': 'export interface AccountStore {\n  countWorkspaces(): Promise<number>;\n  insertWorkspace(name: string): Promise<void>;\n}\n',
    'src/caller.ts': `import type { AccountStore } from './store/interfaces/accounts.js';\n${caller}`,
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  copyFileSync(path.join(ROOT, 'eslint.config.js'), path.join(dir, 'eslint.config.js'));
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function lint(dir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [ESLINT, '--format', 'json', 'src'], { cwd: dir, timeout: 110_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }));
  });
}

describe('npm run lint', () => {
  it('fails on a store call whose promise is dropped or tested as a condition, and passes awaited ones', async () => {
    const planted = project([
      'export async function create(accounts: AccountStore): Promise<boolean> {',
      "  accounts.insertWorkspace('Acme');",
      '  if (!accounts.countWorkspaces()) return false;',
      "  await accounts.insertWorkspace('Beta');",
      "  void accounts.insertWorkspace('Gamma');",
      "  const [n] = await Promise.all([accounts.countWorkspaces(), accounts.insertWorkspace('Delta')]);",
      '  return n > 0;',
      '}',
      '',
    ].join('\n'));
    try {
      const result = await lint(planted.dir);
      expect(result.code).toBe(1);
      const files = JSON.parse(result.output) as Array<{ filePath: string; messages: Array<{ line: number; ruleId: string }> }>;
      const findings = files.flatMap((file) => file.messages.map((m) => `${path.relative(planted.dir, file.filePath)}:${m.line} ${m.ruleId}`));
      expect(findings).toEqual([
        'src/caller.ts:3 @typescript-eslint/no-floating-promises',
        'src/caller.ts:4 @typescript-eslint/no-misused-promises',
      ]);
    } finally {
      planted.cleanup();
    }
  }, 120_000);
});
