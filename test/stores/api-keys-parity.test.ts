import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountStore } from '../../src/store/sqlite/accounts.js';
import type { ApiKeyRow, ApiKeyStore } from '../../src/store/interfaces/api-keys.js';
import { createApiKeyStore } from '../../src/store/sqlite/api-keys.js';
import { createPostgresAccountStore } from '../../src/store/postgres/accounts.js';
import { createPostgresApiKeyStore } from '../../src/store/postgres/api-keys.js';
import { postgresAvailable } from '../support/postgres.js';
import { openTwinDatabases, storeTwins, type TwinDatabases } from '../support/store-pair.js';

const T0 = '2026-11-01T09:00:00.000Z';

function keyRow(workspaceId: string, createdBy: string, overrides: Partial<ApiKeyRow> = {}): ApiKeyRow {
  const id = randomUUID();
  return {
    id,
    workspace_id: workspaceId,
    created_by: createdBy,
    name: `key ${id.slice(0, 4)}`,
    prefix: 'wsk_live_abcd',
    key_hash: `hash-${id}`,
    scopes: 'content:read visibility:read',
    created_at: T0,
    expires_at: '2027-11-01T09:00:00.000Z',
    revoked_at: null,
    last_used_at: null,
    ...overrides,
  };
}

describe.skipIf(!postgresAvailable())('API keys on PostgreSQL answer every call as on SQLite', () => {
  let twins: TwinDatabases;
  let keys: ReturnType<typeof storeTwins<ApiKeyStore>>;
  let accounts: ReturnType<typeof storeTwins<ReturnType<typeof createAccountStore>>>;

  beforeAll(async () => {
    twins = await openTwinDatabases();
    keys = storeTwins(createApiKeyStore(twins.sqlite), createPostgresApiKeyStore(twins.postgres));
    accounts = storeTwins(createAccountStore(twins.sqlite), createPostgresAccountStore(twins.postgres));
  });
  afterAll(async () => {
    await twins?.close();
  });

  it('insertUnderCap, read by id and by hash with the principal, list in (created_at, id) order and page through', async () => {
    const { workspaceId, userId } = await twins.addWorkspaceWithOwner();
    const rows = [keyRow(workspaceId, userId), keyRow(workspaceId, userId), keyRow(workspaceId, userId, { created_at: '2026-10-31T09:00:00.000Z' })];
    for (const key of rows) await keys.same('insertUnderCap', key, Infinity);
    expect(await keys.same('get', rows[0]!.id)).toEqual(rows[0]);
    expect(await keys.same('get', randomUUID())).toBeUndefined();
    expect(await keys.same('principalByHash', rows[1]!.key_hash)).toMatchObject({ key_id: rows[1]!.id, workspace_id: workspaceId, user_id: userId, member_role: 'owner' });
    expect(await keys.same('principalByHash', 'no-such-hash')).toBeUndefined();
    const all = await keys.same('listByWorkspace', workspaceId);
    expect(all.map((k) => k.id)).toEqual([rows[2]!.id, ...[rows[0]!.id, rows[1]!.id].sort()]);
    const first = await keys.same('listPage', workspaceId, 2);
    const last = first[first.length - 1]!;
    expect([...first, ...(await keys.same('listPage', workspaceId, 2, [last.created_at, last.id]))]).toEqual(all);
    expect(await keys.refused('insertUnderCap', { ...keyRow(workspaceId, userId), key_hash: rows[0]!.key_hash }, Infinity)).toBe('unique');
    expect(await keys.refused('insertUnderCap', keyRow(workspaceId, randomUUID()), Infinity)).toBe('foreign key');
  });

  it('the principal loses its role when the creator leaves the workspace', async () => {
    const { workspaceId, userId } = await twins.addWorkspaceWithOwner();
    const key = keyRow(workspaceId, userId);
    await keys.same('insertUnderCap', key, Infinity);
    await accounts.same('deleteMembership', workspaceId, userId);
    expect(await keys.same('principalByHash', key.key_hash)).toMatchObject({ key_id: key.id, member_role: null });
  });

  it('revoke once, revoke everything a user created, record use no earlier than recorded', async () => {
    const { workspaceId, userId } = await twins.addWorkspaceWithOwner();
    const [a, b, c] = [keyRow(workspaceId, userId), keyRow(workspaceId, userId), keyRow(workspaceId, userId)];
    for (const key of [a, b, c]) await keys.same('insertUnderCap', key, Infinity);
    expect(await keys.same('revoke', a.id, '2026-11-03T00:00:00.000Z')).toBe(true);
    expect(await keys.same('revoke', a.id, '2026-11-04T00:00:00.000Z')).toBe(false);
    expect(await keys.same('revoke', randomUUID(), '2026-11-04T00:00:00.000Z')).toBe(false);
    expect(await keys.same('revokeAllBy', workspaceId, userId, '2026-11-05T00:00:00.000Z')).toBe(2);
    expect(await keys.same('revokeAllBy', workspaceId, userId, '2026-11-06T00:00:00.000Z')).toBe(0);
    await keys.same('touch', b.id, '2026-11-02T10:00:00.000Z', '2026-11-02T09:59:00.000Z');
    // A use recorded later than `notBefore` stays.
    await keys.same('touch', b.id, '2026-11-02T10:00:30.000Z', '2026-11-02T09:59:30.000Z');
    expect(await keys.same('get', b.id)).toMatchObject({ last_used_at: '2026-11-02T10:00:00.000Z', revoked_at: '2026-11-05T00:00:00.000Z' });
    await keys.same('touch', b.id, '2026-11-02T10:01:00.000Z', '2026-11-02T10:00:00.000Z');
    expect(await keys.same('get', b.id)).toMatchObject({ last_used_at: '2026-11-02T10:01:00.000Z' });
  });

  it('insertUnderCap counts the keys that still work when the new one is created, and refuses one past the cap, writing nothing', async () => {
    const { workspaceId, userId } = await twins.addWorkspaceWithOwner();
    const working = keyRow(workspaceId, userId);
    // Neither a revoked key nor one expired by the new key's creation counts.
    const revoked = keyRow(workspaceId, userId, { revoked_at: '2026-10-31T00:00:00.000Z' });
    const expired = keyRow(workspaceId, userId, { created_at: '2025-11-01T09:00:00.000Z', expires_at: T0 });
    for (const key of [working, revoked, expired]) expect(await keys.same('insertUnderCap', key, 2)).toBe(true);
    expect(await keys.same('insertUnderCap', keyRow(workspaceId, userId), 2)).toBe(true);
    const refused = keyRow(workspaceId, userId);
    expect(await keys.same('insertUnderCap', refused, 2)).toBe(false);
    expect(await keys.same('get', refused.id)).toBeUndefined();
    // Another workspace's keys count for it alone.
    const other = await twins.addWorkspaceWithOwner();
    expect(await keys.same('insertUnderCap', keyRow(other.workspaceId, other.userId), 1)).toBe(true);
  });
});
