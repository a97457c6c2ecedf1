import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEventFeed } from '../../../src/events/feeds.js';
import { openSqliteStore } from '../../../src/store/index.js';
import { databaseBefore } from '../../support/migrations.js';
import { Cursors } from '../../../src/pagination/cursor.js';

// A database written before migration 044 holds events in the outbox only; opening it with this
// version lists them in the feeds, in the order they were written.

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const WS = '11111111-1111-4111-8111-111111111111';
const EVENTS = [
  // id, type, data, created_at: written in this order; two share a millisecond.
  ['e1', 'topic.status_updated', { id: 't1' }, '2026-11-20T08:00:00.000Z'],
  ['e2', 'content.status_updated', { id: 'a1' }, '2026-11-20T09:00:00.000Z'],
  ['e3', 'iq.status_updated', { id: 'q1' }, '2026-11-20T09:00:00.000Z'],
  ['e4', 'agent_task.status_updated', { id: 'g1' }, '2026-11-20T09:00:00.000Z'],
  ['e5', 'sitemap_url.status_updated', { id: 's1' }, '2026-11-21T10:00:00.000Z'],
  ['e6', 'research_batch.status_updated', { id: 'r1' }, '2026-11-21T11:00:00.000Z'],
] as const;

describe('migration 044: event feeds', () => {
  it('when a database with recorded events opens, lists each in its feed, in the order it was written', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wsapi-migration-'));
    const file = databaseBefore(dir, '044', (db) => {
      db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES (?, 'Acme', '2026-11-01T00:00:00.000Z')").run(WS);
      const insert = db.prepare('INSERT INTO webhook_events (id, workspace_id, event_type, data, created_at) VALUES (?, ?, ?, ?, ?)');
      for (const [id, type, data, at] of EVENTS) insert.run(id, WS, type, JSON.stringify(data), at);
    });
    const store = openSqliteStore(file);
    try {
      const read = async (feed: 'content' | 'content-map' | 'iq') =>
        (await readEventFeed(store, new Cursors(randomBytes(32).toString('base64url')), feed, { workspaceId: WS, limit: 25, now: new Date('2026-11-22T00:00:00.000Z') })).items.map((e) => [e.event, e.timestamp, e.data]);
      expect(await read('content')).toEqual([
        ['content.status_updated', '2026-11-20T09:00:00.000Z', { id: 'a1' }],
        ['agent_task.status_updated', '2026-11-20T09:00:00.000Z', { id: 'g1' }],
        ['research_batch.status_updated', '2026-11-21T11:00:00.000Z', { id: 'r1' }],
      ]);
      expect(await read('content-map')).toEqual([
        ['topic.status_updated', '2026-11-20T08:00:00.000Z', { id: 't1' }],
        ['sitemap_url.status_updated', '2026-11-21T10:00:00.000Z', { id: 's1' }],
      ]);
      expect(await read('iq')).toEqual([['iq.status_updated', '2026-11-20T09:00:00.000Z', { id: 'q1' }]]);
    } finally {
      store.db.close();
    }
  });
});
