import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, tempDatabase, type CliResult } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'workspace-api.js');

/** The installed `workspace-api` bin runs the compiled dist/ (built by `npm run build`, which `npm test` runs first). */
function runBin(args: readonly string[], node: readonly string[] = [process.execPath]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(node[0]!, [...node.slice(1), BIN, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent' }, timeout: 60_000 },
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

  it('on a Node outside package.json engines, refuses to start with a message and exit 1, before loading the store', async () => {
    // This Node reporting itself as 20.20.2: the check reads process.versions.node.
    const asNode20 = [process.execPath, '--import', 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})'];
    db = tempDatabase();
    const result = await runBin(['serve', '--demo', '--db', db.file], asNode20);
    expect(result).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^workspace-api: Node 20\.20\.2 is not supported; this release runs on Node \^22/) });
    expect(existsSync(db.file)).toBe(false);
  });

  // A real Node 20 (the CI machine's own, which .ci/run uses only to fetch Node 24): better-sqlite3
  // 13 would crash it with a segmentation fault once a database opens.
  const olderNode = ['/usr/bin/node', '/usr/local/bin/node'].find((candidate) => existsSync(candidate)
    && Number(execFileSync(candidate, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' })) < 22);
  it.runIf(olderNode)(`on the machine's own older Node (${olderNode}), refuses to start instead of crashing`, async () => {
    db = tempDatabase();
    const result = await runBin(['serve', '--demo', '--db', db.file], [olderNode!]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^workspace-api: Node 2[01]\.\d+\.\d+ is not supported/);
  });

  it('refuses an unknown command with exit 1 and one line on stderr', async () => {
    const result = await runBin(['no-such-command']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
