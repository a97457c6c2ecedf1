// The running server while the command line imports a large file into the same database: how long
// each kind of request takes before the import and while it holds the write lock, and how soon
// after its commit the key uses and request counts the server kept in memory are written.
// The server is `workspace-api serve` in its own process, the import `workspace-api import` in
// another; this process only sends one request at a time (no queueing of its own) and watches the
// lock with a connection that never waits. Each round: /healthz, /readyz, a read (the prompt list),
// a key's first request (GET /me with a key never used before), the usage, and an administration
// write (POST /webhooks: 201, or 503 with Retry-After while the lock is held).
// Run alone: `npx tsx bench/import-while-serving.bench.ts [--lines=300000] [--idle-seconds=5]`;
// options it does not know (bench/run.ts passes its own) are ignored.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { generateVisibility } from '../src/demo/generate-visibility.js';
import { writeImportFile } from '../src/demo/write-import-file.js';
import { createApiKey } from '../src/keys/api-keys.js';
import { createMemberToken } from '../src/keys/member-tokens.js';
import { writeLockHeldElsewhere } from '../src/store/sqlite/database.js';
import { openSqliteStore } from '../src/store/index.js';
import { option } from './support/load.js';
import { insertBenchWorkspace } from './support/prompt-dataset.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '..', 'bin', 'workspace-api.js');
const LINES = Number(option('lines', '300000'));
const IDLE_SECONDS = Number(option('idle-seconds', '5'));
// The demo writes about 560 snapshots a day at 40 prompts and 3 answers per platform and day.
const SNAPSHOTS_PER_DAY = 560;
const FRESH_KEYS = 2_000;

type Kind = 'healthz' | 'readyz' | 'read' | 'first use' | 'usage' | 'admin write';
const KINDS: Kind[] = ['healthz', 'readyz', 'read', 'first use', 'usage', 'admin write'];
/** before: no import running; locked: the import held the lock for the whole round; around: the import's start and its commit. */
type Phase = 'warm-up' | 'before' | 'locked' | 'around';
const PHASES: Array<[Phase, string]> = [['before', 'no import'], ['locked', 'import holds the lock'], ['around', "import's start and commit"]];
interface Sample {
  kind: Kind;
  phase: Phase;
  status: number;
  ms: number;
}

function cli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const dir = path.join(here, '.data', `import-while-serving-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const dbFile = path.join(dir, 'service.db');
  const ndjson = path.join(dir, 'large.ndjson');
  let server: ChildProcess | undefined;
  try {
    const store = openSqliteStore(dbFile);
    const { workspaceId, ownerId } = await insertBenchWorkspace(store);
    const readKey = (await createApiKey(store, { workspaceId, userId: ownerId, name: 'Reads' })).key;
    const fresh = await Promise.all(Array.from({ length: FRESH_KEYS }, (_, i) => createApiKey(store, { workspaceId, userId: ownerId, name: `Fresh ${i}` })));
    const token = (await createMemberToken(store, { workspaceId, userId: ownerId, name: 'Bench' })).token;
    const days = Math.max(1, Math.round(LINES / SNAPSHOTS_PER_DAY));
    const lines = await writeImportFile(ndjson, generateVisibility({ seed: 42, prompts: 40, days, answersPerDay: 3 }));
    const bytes = statSync(ndjson).size;

    server = cli(['serve', '--port', '0', '--host', '127.0.0.1', '--db', dbFile, '--json'], { RATE_LIMIT_QUOTA: '1000000000', WEBHOOK_ALLOW_PRIVATE: 'true' });
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: server!.stdout! }).once('line', resolve);
      server!.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
    });
    const { url } = JSON.parse(first) as { url: string };

    const probe = new Database(dbFile, { timeout: 0 });
    const lockHeld = (): boolean => writeLockHeldElsewhere(probe);

    const samples: Sample[] = [];
    let used = 0;
    let apiRequests = 0;
    let importing = false;
    let lockSeenAt: number | undefined;
    let lockFreedAt: number | undefined;
    // While the import runs, a request counts as "locked" only when the lock was held just before
    // it was sent and just after it was answered.
    const ask = async (kind: Kind, phase: Phase, requestPath: string, init: RequestInit = {}): Promise<void> => {
      const lockedBefore = importing && lockHeld();
      if (lockedBefore) lockSeenAt ??= performance.now();
      const started = performance.now();
      const res = await fetch(`${url}${requestPath}`, init);
      await res.arrayBuffer();
      const ms = performance.now() - started;
      const locked = lockedBefore && lockHeld();
      if (importing && lockSeenAt !== undefined && !locked) lockFreedAt ??= performance.now();
      samples.push({ kind, phase: importing ? (locked ? 'locked' : 'around') : phase, status: res.status, ms });
    };
    const bearer = (key: string): RequestInit => ({ headers: { authorization: `Bearer ${key}` } });
    const round = async (phase: Phase): Promise<void> => {
      await ask('healthz', phase, '/healthz');
      await ask('readyz', phase, '/readyz');
      await ask('read', phase, '/api/v1/visibility/prompts', bearer(readKey));
      apiRequests += 1;
      const key = fresh[used];
      if (key) {
        used += 1;
        await ask('first use', phase, '/api/v1/me', bearer(key.key));
        apiRequests += 1;
      }
      await ask('usage', phase, '/api/v1/workspace/usage', bearer(readKey));
      apiRequests += 1;
      await ask('admin write', phase, `/api/workspace/${workspaceId}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks', name: `Round ${samples.length}`, events: ['content.status_updated'] }),
      });
    };

    // The first requests compile the validators and warm the caches: not measured.
    for (let i = 0; i < 5; i += 1) await round('warm-up');
    const idleUntil = performance.now() + IDLE_SECONDS * 1000;
    while (performance.now() < idleUntil) await round('before');

    const importStarted = performance.now();
    const importer = cli(['import', '--workspace', workspaceId, ndjson, '--db', dbFile, '--json']);
    let importOut = '';
    let importErr = '';
    importer.stdout!.on('data', (d: Buffer) => (importOut += d.toString()));
    importer.stderr!.on('data', (d: Buffer) => (importErr += d.toString()));
    let importEnded: number | undefined;
    const importExit = new Promise<number | null>((resolve) => importer.once('exit', (code) => {
      importEnded = performance.now();
      resolve(code);
    }));
    importing = true;
    while (importEnded === undefined) await round('around');
    importing = false;
    const code = await importExit;
    if (code !== 0) throw new Error(`the import failed (${code}): ${importErr}`);
    const summary = JSON.parse(importOut) as { records: number };

    // How soon after the commit everything the server kept in memory is in the database.
    const reader = openSqliteStore(dbFile);
    const lastUsed = reader.db.prepare('SELECT count(*) FROM api_keys WHERE workspace_id = ? AND name LIKE ? AND last_used_at IS NOT NULL').pluck();
    const progress = async () => ({
      uses: lastUsed.get(workspaceId, 'Fresh %') as number,
      requests: await reader.workspaceProfile.sumApiRequests(workspaceId, 0, 1_000_000),
    });
    let writtenAfterMs: number | undefined;
    while (performance.now() - importEnded < 30_000) {
      const now = await progress();
      if (now.uses === used && now.requests === apiRequests) {
        writtenAfterMs = performance.now() - importEnded;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { uses, requests } = await progress();
    reader.db.close();
    probe.close();
    store.db.close();

    const fmt = (ms: number): string => (Number.isNaN(ms) ? '–' : ms.toFixed(1));
    console.log(`machine: ${os.cpus().length} cores, node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`file: ${lines.toLocaleString('en-US')} lines, ${(bytes / 1_048_576).toFixed(0)} MB; imported ${summary.records.toLocaleString('en-US')} records`);
    console.log(`import: ${((importEnded - importStarted) / 1000).toFixed(1)} s from start to exit; lock seen held for ${(((lockFreedAt ?? importEnded) - (lockSeenAt ?? importStarted)) / 1000).toFixed(1)} s`);
    console.log(writtenAfterMs === undefined
      ? `NOT all written 30 s after the import exited: ${uses} of ${used} key uses, ${requests} of ${apiRequests} API requests`
      : `key uses and request counts written ${writtenAfterMs.toFixed(0)} ms after the import exited (${used} first uses, ${apiRequests} API requests)`);
    console.log('\n| request | phase | requests | statuses | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|---|');
    for (const kind of KINDS) {
      for (const [phase, label] of PHASES) {
        const of = samples.filter((s) => s.kind === kind && s.phase === phase);
        const sorted = of.map((s) => s.ms).sort((a, b) => a - b);
        const statuses = [...new Set(of.map((s) => s.status))].sort().map((st) => `${st}×${of.filter((s) => s.status === st).length}`).join(' ');
        console.log(`| ${kind} | ${label} | ${of.length} | ${statuses} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 99))} | ${fmt(sorted.at(-1) ?? Number.NaN)} |`);
      }
    }
  } finally {
    if (server && server.exitCode === null) {
      await new Promise<void>((resolve) => {
        server!.once('exit', () => resolve());
        server!.kill('SIGTERM');
      });
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
