import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountStore } from '../../src/store/sqlite/accounts.js';
import type { MemberTokenRow, MemberTokenStore } from '../../src/store/interfaces/member-tokens.js';
import { createMemberTokenStore } from '../../src/store/sqlite/member-tokens.js';
import { createPostgresAccountStore } from '../../src/store/postgres/accounts.js';
import { createPostgresMemberTokenStore } from '../../src/store/postgres/member-tokens.js';
import { postgresAvailable } from '../support/postgres.js';
import { openTwinDatabases, storeTwins, type TwinDatabases } from '../support/store-pair.js';

function tokenRow(workspaceId: string, userId: string, createdAt = '2026-11-01T09:00:00.000Z'): MemberTokenRow {
  const id = randomUUID();
  return { id, workspace_id: workspaceId, user_id: userId, name: 'laptop', prefix: 'wsm_live_ab', token_hash: `hash-${id}`, created_at: createdAt, revoked_at: null };
}

describe.skipIf(!postgresAvailable())('member tokens on PostgreSQL answer every call as on SQLite', () => {
  let twins: TwinDatabases;
  let tokens: ReturnType<typeof storeTwins<MemberTokenStore>>;
  let accounts: ReturnType<typeof storeTwins<ReturnType<typeof createAccountStore>>>;

  beforeAll(async () => {
    twins = await openTwinDatabases();
    tokens = storeTwins(createMemberTokenStore(twins.sqlite), createPostgresMemberTokenStore(twins.postgres));
    accounts = storeTwins(createAccountStore(twins.sqlite), createPostgresAccountStore(twins.postgres));
  });
  afterAll(async () => {
    await twins?.close();
  });

  it('insert, read by id and by hash with the principal, list in (created_at, id) order', async () => {
    const { workspaceId, userId } = await twins.addWorkspaceWithOwner();
    const rows = [tokenRow(workspaceId, userId, '2026-11-02T09:00:00.000Z'), tokenRow(workspaceId, userId), tokenRow(workspaceId, userId)];
    for (const token of rows) await tokens.same('insert', token);
    expect(await tokens.same('get', rows[0]!.id)).toEqual(rows[0]);
    expect(await tokens.same('get', randomUUID())).toBeUndefined();
    expect(await tokens.same('principalByHash', rows[0]!.token_hash)).toEqual({
      token_id: rows[0]!.id,
      revoked_at: null,
      workspace_id: workspaceId,
      workspace_name: 'Twin workspace',
      user_id: userId,
      user_name: 'Owner',
      user_email: `${userId}@example.com`,
      member_role: 'owner',
    });
    expect(await tokens.same('principalByHash', 'no-such-hash')).toBeUndefined();
    expect((await tokens.same('listByWorkspace', workspaceId)).map((t) => t.id)).toEqual([...[rows[1]!.id, rows[2]!.id].sort(), rows[0]!.id]);
    expect(await tokens.refused('insert', { ...tokenRow(workspaceId, userId), token_hash: rows[0]!.token_hash })).toBe('unique');
  });

  it('revoke once, revoke every token of a user, and lose the role when the user leaves', async () => {
    const { workspaceId, userId } = await twins.addWorkspaceWithOwner();
    const [a, b] = [tokenRow(workspaceId, userId), tokenRow(workspaceId, userId)];
    await tokens.same('insert', a);
    await tokens.same('insert', b);
    expect(await tokens.same('revoke', a.id, '2026-11-03T00:00:00.000Z')).toBe(true);
    expect(await tokens.same('revoke', a.id, '2026-11-04T00:00:00.000Z')).toBe(false);
    expect(await tokens.same('revokeAllOf', workspaceId, userId, '2026-11-05T00:00:00.000Z')).toBe(1);
    expect(await tokens.same('get', a.id)).toMatchObject({ revoked_at: '2026-11-03T00:00:00.000Z' });
    await accounts.same('deleteMembership', workspaceId, userId);
    expect(await tokens.same('principalByHash', b.token_hash)).toMatchObject({ revoked_at: '2026-11-05T00:00:00.000Z', member_role: null });
  });
});
