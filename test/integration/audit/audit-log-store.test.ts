// The audit log's store on the run's store (SQLite in `fast`, PostgreSQL in `fast-postgres`):
// filters, newest-first pages, entries joining a write's transaction, and the retention prune.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { testStoreForThisTest } from '../../support/test-server.js';
import { pruneAuditLog, startAuditLogPruner } from '../../../src/audit/audit-log-retention.js';
import { until } from '../../support/wait.js';
import { CLI_ACTOR, recordAudit, type AuditEntry } from '../../../src/audit/record-audit.js';
import type { AuditRow } from '../../../src/store/interfaces/audit-log.js';

const DAY_MS = 86_400_000;

describe('audit log store', () => {
  it('lists a workspace\'s entries newest first, page after page, by every filter, and nothing of another workspace', async () => {
    const { store } = await testStoreForThisTest();
    const ws = await createTestWorkspace(store);
    const other = await createTestWorkspace(store);
    const keyId = randomUUID();
    const base = Date.parse('2026-11-01T00:00:00.000Z');
    const entries: Array<[AuditEntry, number]> = [
      [{ workspaceId: ws.workspaceId, actor: ws.ownerId, action: 'api_key.created', object: { type: 'api_key', id: keyId }, address: '203.0.113.7', requestId: 'r1' }, 0],
      [{ workspaceId: ws.workspaceId, actor: CLI_ACTOR, action: 'api_key.revoked', object: { type: 'api_key', id: keyId } }, 1],
      [{ workspaceId: ws.workspaceId, actor: 'anonymous', action: 'authentication.failed', outcome: 'failed', address: '198.51.100.1' }, 2],
      [{ workspaceId: ws.workspaceId, actor: ws.ownerId.toUpperCase(), action: 'webhook.deleted', object: { type: 'webhook', id: randomUUID() } }, 3],
      [{ workspaceId: other.workspaceId, actor: other.ownerId, action: 'api_key.created', object: { type: 'api_key', id: keyId } }, 1],
    ];
    for (const [entry, day] of entries) await recordAudit(store, entry, new Date(base + day * DAY_MS));

    const page = (filters = {}, limit = 10, after?: readonly [string, string]) => store.auditLog.listPage(ws.workspaceId, filters, limit, after);
    const all = await page();
    expect(all.map((r) => r.action)).toEqual(['webhook.deleted', 'authentication.failed', 'api_key.revoked', 'api_key.created']);
    expect(all[3]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      workspace_id: ws.workspaceId,
      occurred_at: '2026-11-01T00:00:00.000Z',
      actor_type: 'member',
      actor_user_id: ws.ownerId,
      action: 'api_key.created',
      object_type: 'api_key',
      object_id: keyId,
      address: '203.0.113.7',
      request_id: 'r1',
      outcome: 'succeeded',
    } satisfies AuditRow);
    expect(all[0]!.actor_user_id).toBe(ws.ownerId);
    expect(all[1]).toMatchObject({ actor_type: 'anonymous', actor_user_id: null, object_type: null, object_id: null, outcome: 'failed' });
    expect(all[2]).toMatchObject({ actor_type: 'cli', actor_user_id: null, address: null, request_id: null });

    const first = await page({}, 2);
    const second = await page({}, 2, [first[1]!.occurred_at, first[1]!.id]);
    expect([...first, ...second].map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect((await page({ actorType: 'cli' })).map((r) => r.action)).toEqual(['api_key.revoked']);
    expect((await page({ actorType: 'member', actorUserId: ws.ownerId })).map((r) => r.action)).toEqual(['webhook.deleted', 'api_key.created']);
    expect((await page({ action: 'api_key.created' })).length).toBe(1);
    expect((await page({ objectType: 'api_key', objectId: keyId })).map((r) => r.action)).toEqual(['api_key.revoked', 'api_key.created']);
    expect((await page({ since: '2026-11-02T00:00:00.000Z', until: '2026-11-04T00:00:00.000Z' })).map((r) => r.action)).toEqual(['authentication.failed', 'api_key.revoked']);
  });

  it('writes nothing for a workspace that does not exist', async () => {
    const { store } = await testStoreForThisTest();
    const nowhere = randomUUID();
    await recordAudit(store, { workspaceId: nowhere, actor: 'anonymous', action: 'authentication.failed', outcome: 'failed' });
    expect(await store.auditLog.listPage(nowhere, {}, 10)).toEqual([]);
  });

  it('inside store.atomically, entries commit with the change, and roll back with it', async () => {
    const { store } = await testStoreForThisTest();
    const ws = await createTestWorkspace(store);
    const at = new Date();
    await expect(store.atomically(async () => {
      await store.apiKeys.revoke(ws.keyId, at.toISOString());
      await recordAudit(store, { workspaceId: ws.workspaceId, actor: CLI_ACTOR, action: 'api_key.revoked', object: { type: 'api_key', id: ws.keyId } }, at);
      throw new Error('the change fails after its entry');
    })).rejects.toThrow('the change fails after its entry');
    expect((await store.apiKeys.get(ws.keyId))?.revoked_at).toBeNull();
    expect(await store.auditLog.listPage(ws.workspaceId, {}, 10)).toEqual([]);

    await store.atomically(async () => {
      await store.apiKeys.revoke(ws.keyId, at.toISOString());
      await recordAudit(store, { workspaceId: ws.workspaceId, actor: CLI_ACTOR, action: 'api_key.revoked', object: { type: 'api_key', id: ws.keyId } }, at);
    });
    expect((await store.apiKeys.get(ws.keyId))?.revoked_at).toBe(at.toISOString());
    expect((await store.auditLog.listPage(ws.workspaceId, {}, 10)).map((r) => r.action)).toEqual(['api_key.revoked']);
  });

  it('the retention prune removes the entries of every workspace older than the retention, and only those', async () => {
    const { store } = await testStoreForThisTest();
    const [a, b] = [await createTestWorkspace(store), await createTestWorkspace(store)];
    const now = new Date('2027-12-01T12:00:00.000Z');
    const entry = (workspaceId: string): AuditEntry => ({ workspaceId, actor: CLI_ACTOR, action: 'member.added', object: { type: 'member', id: randomUUID() } });
    const ages = [401, 400.0001, 399.9999, 10];
    for (const ws of [a, b]) for (const days of ages) await recordAudit(store, entry(ws.workspaceId), new Date(now.getTime() - days * DAY_MS));
    const before = async (ws: typeof a) => (await store.auditLog.listPage(ws.workspaceId, {}, 10)).length;
    expect([await before(a), await before(b)]).toEqual([4, 4]);
    // Other workspaces' old entries (this test's store may hold more on PostgreSQL) count too: at least ours.
    expect(await pruneAuditLog(store, 400, now)).toBeGreaterThanOrEqual(4);
    const kept = (await store.auditLog.listPage(a.workspaceId, {}, 10)).map((r) => r.occurred_at);
    expect(kept).toEqual([new Date(now.getTime() - 10 * DAY_MS).toISOString(), new Date(now.getTime() - 399.9999 * DAY_MS).toISOString()]);
    expect(await before(b)).toBe(2);
    expect(await pruneAuditLog(store, 400, now)).toBe(0);
  });

  it('the server\'s pruner prunes at start and again at every turn after', async () => {
    const { store } = await testStoreForThisTest();
    const ws = await createTestWorkspace(store);
    const listed = async () => (await store.auditLog.listPage(ws.workspaceId, {}, 10)).map((r) => r.action);
    const old = (days: number) => new Date(Date.now() - days * DAY_MS);
    await recordAudit(store, { workspaceId: ws.workspaceId, actor: CLI_ACTOR, action: 'member.added', object: { type: 'member', id: ws.ownerId } }, old(31));
    const pruned: number[] = [];
    const errors: unknown[] = [];
    const pruner = startAuditLogPruner({ store, retentionDays: 30, everyMs: 20, onPruned: (n) => pruned.push(n), onError: (err) => errors.push(err) });
    try {
      await until(async () => (await listed()).length === 0, 5_000, 'the old entry pruned at start');
      await recordAudit(store, { workspaceId: ws.workspaceId, actor: CLI_ACTOR, action: 'member.removed', object: { type: 'member', id: ws.ownerId } }, old(30.5));
      await recordAudit(store, { workspaceId: ws.workspaceId, actor: CLI_ACTOR, action: 'member.added', object: { type: 'member', id: ws.ownerId } }, old(29));
      await until(async () => (await listed()).length === 1, 5_000, 'the entry past the retention pruned at a later turn');
      expect(await listed()).toEqual(['member.added']);
      expect(pruned.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
      expect(errors).toEqual([]);
    } finally {
      await pruner.stop();
    }
  });
});
