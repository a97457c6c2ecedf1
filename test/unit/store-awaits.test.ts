import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-store-awaits.mjs', import.meta.url));

function check(dir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, dir], { timeout: 110_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }));
  });
}

/** A throwaway project with a store interface and one file that calls it. */
function project(caller: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-awaits-'));
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, types: [] }, include: ['src'] }),
    'src/store/interfaces/accounts.ts': 'export interface AccountStore {\n  countWorkspaces(): Promise<number>;\n  insertWorkspace(name: string): Promise<void>;\n}\n',
    'src/caller.ts': `import type { AccountStore } from './store/interfaces/accounts.js';\n${caller}`,
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('npm run store:awaits', () => {
  it('fails on a store call whose promise is dropped or tested as a value, naming each', async () => {
    const planted = project([
      'export async function create(accounts: AccountStore): Promise<boolean> {',
      "  accounts.insertWorkspace('Acme');",
      '  if (!accounts.countWorkspaces()) return false;',
      '  return true;',
      '}',
      '',
    ].join('\n'));
    try {
      const result = await check(planted.dir);
      expect(result.code).toBe(1);
      expect(result.output).toContain('src/caller.ts:3: the promise of accounts.insertWorkspace() is not awaited');
      expect(result.output).toContain('src/caller.ts:4: the promise of accounts.countWorkspaces() is not awaited');
    } finally {
      planted.cleanup();
    }
  }, 120_000);

  it('passes awaited, returned, combined and explicitly dropped calls', async () => {
    const awaited = project([
      'export async function create(accounts: AccountStore): Promise<number> {',
      "  await accounts.insertWorkspace('Acme');",
      "  void accounts.insertWorkspace('Beta');",
      "  const [n] = await Promise.all([accounts.countWorkspaces(), accounts.insertWorkspace('Gamma')]);",
      '  if (n === 0) return accounts.countWorkspaces();',
      '  return n;',
      '}',
      '',
    ].join('\n'));
    try {
      const result = await check(awaited.dir);
      expect(result.output).toContain('every store call is awaited');
      expect(result.code).toBe(0);
    } finally {
      awaited.cleanup();
    }
  }, 120_000);
});
