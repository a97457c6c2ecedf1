import { expect, it } from 'vitest';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { describeSqliteOnly } from '../../support/store-kind.js';
import { useSqliteTestServer } from '../../support/test-server.js';
import { until } from '../../support/wait.js';
import { holdWriteLock, timedSend } from '../../support/write-lock.js';

// An import holds the database's write lock for its whole file. These tests hold it from another
// connection, as the command line in another process does (see serving-during-a-real-import.test.ts
// for the real thing), and check that the running server never waits for it.
const BOUND_MS = 2_000;

// SQLite only: a PostgreSQL store has no database-wide write lock for an import to hold.
describeSqliteOnly('the server while an import in another process holds the write lock', () => {
  const server = useSqliteTestServer();

  it("answers /healthz, /readyz, reads and a key's first request at once, then writes the key's last use and the request counts once the lock is free", async () => {
    const ws = await createTestWorkspace(server.store);
    const fresh = await createTestKey(server.store, ws, { name: 'Never used yet' });
    const lock = holdWriteLock(server.store.db.name);
    let answers;
    try {
      answers = [
        await timedSend(server.url, { path: '/healthz' }),
        await timedSend(server.url, { path: '/readyz' }),
        await timedSend(server.url, { path: '/api/v1/me', key: fresh.key }),
        await timedSend(server.url, { path: '/api/v1/visibility/prompts', key: ws.key }),
        await timedSend(server.url, { path: '/api/v1/workspace/usage', key: ws.key }),
      ];
      // Nothing could be written while the lock was held: both wait in memory.
      expect((await server.store.apiKeys.get(fresh.id))!.last_used_at).toBeNull();
      expect(await server.store.workspaceProfile.sumApiRequests(ws.workspaceId, 0, 1_000_000)).toBe(0);
    } finally {
      lock.release();
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    for (const a of answers) expect(a.ms).toBeLessThan(BOUND_MS);
    // The usage already counts the requests waiting to be written.
    expect((answers[4]!.body as { data: { api_requests_served: number } }).data.api_requests_served).toBe(3);
    expect((answers[2]!.body as { data: { key: { id: string; last_used_at: string | null } } }).data.key).toMatchObject({ id: fresh.id, last_used_at: null });

    await until(async () => (await server.store.apiKeys.get(fresh.id))!.last_used_at !== null, 5_000, "the key's last use to be written");
    await until(async () => (await server.store.workspaceProfile.sumApiRequests(ws.workspaceId, 0, 1_000_000)) === 3, 5_000, 'the request counts to be written');
  });

  it('answers an administration write 503 (5030) with Retry-After at once and changes nothing; the same request succeeds once the lock is free', async () => {
    const ws = await createTestWorkspace(server.store);
    const admin = adminClient(server.url, ws.workspaceId, (await createTestMemberToken(server.store, ws)).token);
    const create = { method: 'POST', path: '/webhooks', body: { url: 'https://93.184.216.34/hooks', name: 'CRM sync', events: ['content.status_updated'] } };
    const lock = holdWriteLock(server.store.db.name);
    let refused;
    try {
      const started = performance.now();
      refused = { ...(await admin(create)), ms: performance.now() - started };
    } finally {
      lock.release();
    }
    expect([refused.status, refused.body, refused.headers.get('retry-after')]).toEqual([
      503,
      { code: 5030, messages: 'The database is busy with another write (an import); nothing was changed. Retry after Retry-After seconds.', data: null },
      '1',
    ]);
    expect(refused.ms).toBeLessThan(BOUND_MS);
    expect((await admin({ path: '/webhooks' })).body).toMatchObject({ data: { items: [] } });

    const created = await admin(create);
    expect([created.status, (created.body as { code: number }).code]).toEqual([201, 2010]);
  });
});
