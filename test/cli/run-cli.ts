import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteStore, openStore, type Store } from '../../src/store/index.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createPostgresDatabase } from '../support/postgres.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The command line compiled into dist/, as the bin runs it: a child starts in a third of the time
 * it takes through tsx. The slow lane rebuilds dist/ before its tests whenever src/ changed since
 * (test/setup/built-dist.global.ts), so tests never run stale code; test/cli/bin-smoke.test.ts
 * runs the `workspace-api` bin itself.
 */
export const CLI = [path.join(ROOT, 'dist', 'cli', 'main.js')];

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one command to completion in a child process, as a user would. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...CLI, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
  });
}

/** Starts a long-running command (serve); the caller signals it and awaits `exited`. */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited };
}

/** A command line run inside the test's process, with its own streams; `stderr()` reads what it wrote so far. */
export interface InProcessCli {
  stdout: () => string;
  stderr: () => string;
  /** Resolves once stderr holds a line matching `pattern`, with the match. */
  waitForStderr: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  exited: Promise<CliResult>;
}

/**
 * Runs one command line in this process (the same entry the bin uses), as a user would type it;
 * `stdin`, when given, is what standard input holds before it ends (else it stays open and empty).
 */
export function startCliInProcess(args: readonly string[], stdin?: string | Buffer): InProcessCli {
  const collected = { stdout: '', stderr: '' };
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const input = new PassThrough();
  if (stdin !== undefined) input.end(stdin);
  stdout.on('data', (chunk: Buffer) => { collected.stdout += chunk.toString('utf8'); });
  stderr.on('data', (chunk: Buffer) => { collected.stderr += chunk.toString('utf8'); });
  // Loaded on first use: files that only spawn the command line never load the whole service.
  const exited = import('../../src/cli/run-command-line.js')
    .then(({ runCommandLine }) => runCommandLine(args, { stdout, stderr, stdin: input }))
    .then((code) => ({ code, stdout: collected.stdout, stderr: collected.stderr }));
  return {
    stdout: () => collected.stdout,
    stderr: () => collected.stderr,
    waitForStderr: async (pattern, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(collected.stderr);
        if (match) return match;
        if (Date.now() > deadline) throw new Error(`stderr never matched ${pattern}: ${collected.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    exited,
  };
}

/** `startCliInProcess` run to completion. */
export function runCliInProcess(args: readonly string[], stdin?: string | Buffer): Promise<CliResult> {
  return startCliInProcess(args, stdin).exited;
}

/** The first line a started command prints on stdout, parsed as JSON (`serve --json` prints its address). */
export function firstJsonLine(child: ChildProcess): Promise<Record<string, unknown>> {
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]!) as Record<string, unknown>);
    });
    child.once('exit', (code) => reject(new Error(`exited early (${code}): ${stderr}`)));
  });
}

/** The one JSON object a `--json` command prints: stdout must be exactly that, on one line. */
export function jsonOf(result: CliResult): Record<string, unknown> {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  const lines = result.stdout.split('\n');
  if (lines.length !== 2 || lines[1] !== '') throw new Error(`expected one line of JSON, got ${JSON.stringify(result.stdout)}`);
  const parsed = JSON.parse(lines[0]!) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`not a JSON object: ${lines[0]}`);
  return parsed as Record<string, unknown>;
}

/** A temp folder holding the database the commands work on; `open` reads it back for assertions. */
export function tempDatabase(): { file: string; open: () => SqliteStore; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-cli-'));
  const file = path.join(dir, 'cli.db');
  const opened: SqliteStore[] = [];
  return {
    file,
    open: () => {
      const store = openSqliteStore(file);
      opened.push(store);
      return store;
    },
    cleanup: () => {
      for (const s of opened) if (s.db.open) s.db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The stores the command line runs on. */
export type StoreKind = 'sqlite' | 'postgres';

/**
 * A database the commands work on, of either kind: a SQLite file in a temp folder, or a new, empty
 * database of the run's PostgreSQL cluster (the commands migrate it themselves, as they would a
 * user's). `address` is what `--db` takes; `open` reads it back for assertions.
 */
export async function cliDatabase(kind: StoreKind): Promise<{ kind: StoreKind; address: string; open: () => Promise<Store>; cleanup: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const { file, open, cleanup } = tempDatabase();
    return { kind, address: file, open: async () => open(), cleanup: async () => cleanup() };
  }
  const address = await createPostgresDatabase('wsapi_cli');
  const opened: Store[] = [];
  return {
    kind,
    address,
    open: async () => {
      const store = await openStore(address);
      opened.push(store);
      return store;
    },
    cleanup: async () => {
      await Promise.all(opened.map((s) => s.close()));
    },
  };
}
