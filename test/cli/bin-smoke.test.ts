import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, tempDatabase, type CliResult } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'workspace-api.js');

/** The installed `workspace-api` bin runs the compiled dist/ (built by `npm run build`, which `npm test` runs first). */
function runBin(args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent' }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }));
  });
}

// `npm test` builds dist/ before the tests; a bare `vitest run` on a fresh checkout builds it here.
beforeAll(() => {
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'ignore' });
}, 180_000);

let db: ReturnType<typeof tempDatabase> | undefined;
afterEach(() => {
  db?.cleanup();
  db = undefined;
});

describe('workspace-api bin (compiled)', () => {
  it('runs from dist/ without tsx: creates a workspace and reads it back', async () => {
    db = tempDatabase();
    const created = jsonOf(await runBin(['workspace', 'create', '--name', 'Smoke Test Co', '--db', db.file, '--json']));
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    const store = db.open();
    const row = store.db.prepare('SELECT name FROM workspaces WHERE id = ?').get(created.id) as { name: string } | undefined;
    expect(row).toEqual({ name: 'Smoke Test Co' });
  });

  it('refuses an unknown command with exit 1 and one line on stderr', async () => {
    const result = await runBin(['no-such-command']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
