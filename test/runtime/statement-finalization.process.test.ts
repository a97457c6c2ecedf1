import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../cli/run-cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHILD = path.join(root, 'test/support/statement-finalization-child.mjs');

let db: ReturnType<typeof tempDatabase> | undefined;
afterEach(() => {
  db?.cleanup();
  db = undefined;
});

/** Runs the child in `mode` on the Node running the tests; its exit code, signal and stderr. */
function runChild(mode: 'idle' | 'exit', file: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CHILD, mode, file], { cwd: root, timeout: 60_000 }, (_error, _stdout, stderr) =>
      resolve({ code: child.exitCode, signal: child.signalCode, stderr }),
    );
  });
}

// A SQLite binding whose statements are freed by a finalizer that needs the running script's
// environment aborts the whole process when the garbage collector runs from one of V8's own tasks
// (between two turns of the event loop, or at shutdown) and collects a dropped statement: on Node
// 24.19 to 24.21, better-sqlite3 12 ends in SIGABRT with `Assertion failed: (env) != nullptr`,
// seconds to hours after start. Every read prepares statements and drops them, so the service is
// exposed whenever it is idle. Each case runs in its own process, on the Node running the tests.
describe('prepared statements collected off the JavaScript stack', { timeout: 90_000 }, () => {
  it.each([
    { mode: 'idle', what: 'dropped between turns of the event loop and collected by V8 while the process idles' },
    { mode: 'exit', what: 'left uncollected when the process shuts down' },
  ] as const)('$mode: statements $what do not abort the process', async ({ mode }) => {
    db = tempDatabase();
    const run = await runChild(mode, db.file);
    expect(run, run.stderr).toEqual({ code: 0, signal: null, stderr: '' });
  });
});
