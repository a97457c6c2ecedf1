import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { articleLine, changed, type Line } from '../../support/content-records.js';
import { catchUp, FEED_PATHS, type FeedEvent } from '../../support/event-feeds.js';
import { NO_RATE_LIMIT, startSqliteTestServer } from '../../support/test-server.js';
import { importRecords } from '../../support/visibility.js';

// Two writers emit events into one feed at the same time, each a child process running one import
// after another on its own connection (as imports reach a running service), while a client follows
// the feed's cursor all along, a few events a page. The writers take turns for the database's write
// lock, so their events interleave in the feed.

const CHILD = fileURLToPath(new URL('../../support/import-rounds-child.ts', import.meta.url));
const ROUNDS = 6;

/** Imports `files` in turn in a child process; resolves with the events they emitted. */
function importInChild(databasePath: string, workspaceId: string, files: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', CHILD, databasePath, workspaceId, ...files], { env: { ...process.env, LOG_LEVEL: 'silent' }, timeout: 90_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve((JSON.parse(stdout) as { events: number }).events)));
  });
}

const STATUSES = ['PROCESSING', 'GENERATED', 'PUBLISHED', 'DRAFT'] as const;

/** Every article moved to the round's status, with the round in its title so each event is told apart. */
function round(articles: readonly Line[], r: number, writer: string): Line[] {
  return articles.map((a) => changed(a, { status: STATUSES[r % STATUSES.length], title: `${writer} round ${r}` }));
}

const key = (e: { event: string; data: Record<string, unknown> }) => `${e.event} ${String(e.data.id)} ${String(e.data.title)}`;

describe('GET /api/v1/content/events while imports emit events', () => {
  it('a client following the cursor sees every event exactly once, in commit order', async () => {
    // A SQLite file: the child processes import into the file the server serves (`server.address`).
    const server = await startSqliteTestServer({ rateLimit: NO_RATE_LIMIT });
    onTestFinished(() => server.close());
    const { store } = server;
    const file = server.address;
    const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-feed-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const ws = await createTestWorkspace(store);
    const sets = { alpha: Array.from({ length: 8 }, () => articleLine({ status: 'DRAFT' })), beta: Array.from({ length: 5 }, () => articleLine({ status: 'DRAFT' })) };
    await importRecords(store, ws, [...sets.alpha, ...sets.beta], { events: false }); // a backfill: no event yet

    let importsRunning = 2;
    let runsWithNews = 0;
    const writer = (name: keyof typeof sets) => {
      const files = Array.from({ length: ROUNDS }, (_, r) => {
        const ndjson = path.join(dir, `${name}-${r}.ndjson`);
        writeFileSync(ndjson, round(sets[name], r, name).map((l) => `${l.line}\n`).join(''));
        return ndjson;
      });
      return importInChild(file, ws.workspaceId, files).finally(() => { importsRunning -= 1; });
    };
    const writers = Promise.all([writer('alpha'), writer('beta')]);

    const seen: FeedEvent[] = [];
    let cursor: string | undefined;
    while (importsRunning > 0) {
      const run = await catchUp(server.url, ws.key, FEED_PATHS.content, { cursor, limit: 3 });
      if (run.events.length > 0) runsWithNews += 1;
      seen.push(...run.events);
      cursor = run.cursor;
      await sleep(25);
    }
    const eventsImported = (await writers).reduce((a, b) => a + b, 0);
    seen.push(...(await catchUp(server.url, ws.key, FEED_PATHS.content, { cursor, limit: 3 })).events);

    // What the writers emitted, in the order they inserted it (one writer at a time: commit order).
    const emitted = (store.db.prepare('SELECT event_type, data FROM webhook_events WHERE workspace_id = ? ORDER BY rowid')
      .all(ws.workspaceId) as Array<{ event_type: string; data: string }>)
      .map((row) => key({ event: row.event_type, data: JSON.parse(row.data) as Record<string, unknown> }));
    expect(eventsImported).toBe((8 + 5) * ROUNDS);
    expect(emitted).toHaveLength(eventsImported);
    expect(new Set(seen.map(key)).size).toBe(seen.length);
    expect(seen.map(key)).toEqual(emitted);
    // The client caught up several times while the imports were at work, not only after them.
    expect(runsWithNews).toBeGreaterThan(1);
  }, 120_000);
});
