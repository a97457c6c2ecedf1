import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/store/index.js';
import { createApiKey } from '../../../src/keys/api-keys.js';
import { databaseBefore } from '../../support/migrations.js';
import { snapshotLine } from '../../support/import-records.js';
import { startTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';

// A database written before migration 013 holds answers without an update time; opening it with
// this version gives each its collection time (never later than the upgrade), so a first sync
// lists them all and every later import's answers come strictly after them.

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const WS = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';
const PROMPT = '33333333-3333-4333-8333-333333333333';
const PAST = '44444444-4444-4444-8444-444444444444';
const FUTURE = '55555555-5555-4555-8555-555555555555';
const AT = '2026-11-01T00:00:00.000Z';
const PAST_MS = Date.parse('2026-10-30T07:42:10.512Z');
const FUTURE_MS = Date.parse('2100-01-01T00:00:00.000Z');

function databaseBefore013(): string {
  dir = mkdtempSync(path.join(tmpdir(), 'wsapi-migration-'));
  return databaseBefore(dir, '013', (db) => {
    db.prepare('INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)').run(WS, 'Acme', AT);
    db.prepare('INSERT INTO users (id, email, name, created_at) VALUES (?, ?, ?, ?)').run(USER, 'owner@acme.example', 'Owner', AT);
    db.prepare("INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, 'owner', ?)").run(WS, USER, AT);
    const claim = db.prepare('INSERT INTO record_ids (id, workspace_id, type) VALUES (?, ?, ?)');
    claim.run(PROMPT, WS, 'prompt');
    db.prepare("INSERT INTO prompts (id, workspace_id, text, category_id, status, created_at) VALUES (?, ?, 'Best CRM?', NULL, 'ACTIVE', ?)").run(PROMPT, WS, AT);
    const insert = db.prepare(
      `INSERT INTO snapshots (id, workspace_id, prompt_id, platform, collected_ms, day, mentioned, cited, competitors, citations, answer)
       VALUES (?, ?, ?, 'chatgpt', ?, ?, 1, 0, '[]', '[]', 'An answer.')`,
    );
    for (const [id, ms] of [[PAST, PAST_MS], [FUTURE, FUTURE_MS]] as const) {
      claim.run(id, WS, 'snapshot');
      insert.run(id, WS, PROMPT, ms, Math.floor(ms / 86_400_000));
    }
  });
}

describe('migration 013: the update time of answers', () => {
  it('when a database with answers opens, each carries its collection time, at the latest the upgrade\'s, and a later import comes after them', async () => {
    const file = databaseBefore013();
    const before = Date.now();
    const store = openSqliteStore(file, { serving: true });
    const after = Date.now();
    const { key } = await createApiKey(store, { workspaceId: WS, userId: USER, name: 'Sync' });
    const server = await startTestServer({ store, now: () => new Date('2026-11-02T12:00:00.000Z') });
    const ws = { workspaceId: WS, ownerId: USER, key, keyId: '' };
    try {
      const list = async (query: Record<string, string>) => {
        const res = await getWith(server, ws, '/api/v1/visibility/answers', { order: 'updated_at', ...query });
        expect(res.status, res.text).toBe(200);
        return (res.body as { data: { items: Array<{ id: string; updated_at: string }> } }).data.items.map(({ id, updated_at }) => ({ id, updated_at }));
      };
      const migrated = await list({});
      expect(migrated.map((a) => a.id)).toEqual([PAST, FUTURE]);
      expect(migrated[0]!.updated_at).toBe('2026-10-30T07:42:10.512Z');
      const upgradedAt = migrated[1]!.updated_at;
      // SQLite's clock and this one may round a millisecond apart.
      expect(Date.parse(upgradedAt)).toBeGreaterThanOrEqual(before - 1);
      expect(Date.parse(upgradedAt)).toBeLessThanOrEqual(after + 1);

      // An import whose clock reads an earlier time still stamps after every migrated answer.
      const added = snapshotLine({ id: randomUUID(), prompt_id: PROMPT, collected_at: '2026-11-02T08:00:00.000Z' });
      await importRecords(store, ws, [added], { now: () => new Date('2020-01-01T00:00:00.000Z') });
      const next = new Date(Date.parse(upgradedAt) + 1).toISOString();
      expect(await list({ updated_after: upgradedAt })).toEqual([{ id: added.id, updated_at: next }]);
    } finally {
      // The test server leaves a store it was given open.
      await server.close();
      await store.close();
    }
  });
});
