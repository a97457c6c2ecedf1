import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountStore } from '../../src/store/sqlite/accounts.js';
import type { ConsoleSessionRow, ConsoleSessionStore, SignInLinkRow } from '../../src/store/interfaces/console-sessions.js';
import { createConsoleSessionStore } from '../../src/store/sqlite/console-sessions.js';
import { createPostgresAccountStore } from '../../src/store/postgres/accounts.js';
import { createPostgresConsoleSessionStore } from '../../src/store/postgres/console-sessions.js';
import { postgresAvailable } from '../support/postgres.js';
import { openTwinDatabases, storeTwins, type TwinDatabases } from '../support/store-pair.js';

function linkRow(workspaceId: string, userId: string, expiresAt = '2026-11-01T09:10:00.000Z'): SignInLinkRow {
  const id = randomUUID();
  return { id, workspace_id: workspaceId, user_id: userId, link_hash: `link-${id}`, created_at: '2026-11-01T09:00:00.000Z', expires_at: expiresAt, used_at: null };
}

function sessionRow(workspaceId: string, userId: string, linkId: string | null): ConsoleSessionRow {
  const id = randomUUID();
  return {
    id, workspace_id: workspaceId, user_id: userId, token_id: null, link_id: linkId, role: 'owner', session_hash: `session-${id}`,
    created_at: '2026-11-01T09:01:00.000Z', last_seen_at: '2026-11-01T09:01:00.000Z', ended_at: null,
  };
}

describe.skipIf(!postgresAvailable())('console sessions and sign-in links on PostgreSQL answer every call as on SQLite', () => {
  let twins: TwinDatabases;
  let sessions: ReturnType<typeof storeTwins<ConsoleSessionStore>>;
  let accounts: ReturnType<typeof storeTwins<ReturnType<typeof createAccountStore>>>;

  beforeAll(async () => {
    twins = await openTwinDatabases();
    sessions = storeTwins(createConsoleSessionStore(twins.sqlite), createPostgresConsoleSessionStore(twins.postgres));
    accounts = storeTwins(createAccountStore(twins.sqlite), createPostgresAccountStore(twins.postgres));
  });
  afterAll(async () => {
    await twins?.close();
  });

  it('spends a link once, before it expires, and reads it by hash afterwards', async () => {
    const { workspaceId, userId } = await twins.addWorkspaceWithOwner();
    const link = linkRow(workspaceId, userId);
    const late = linkRow(workspaceId, userId);
    await sessions.same('insertLink', link);
    await sessions.same('insertLink', late);
    expect(await sessions.refused('insertLink', { ...linkRow(workspaceId, userId), link_hash: link.link_hash })).toBe('unique');
    expect(await sessions.same('spendLink', late.link_hash, '2026-11-01T09:10:00.000Z')).toBeUndefined();
    expect(await sessions.same('spendLink', link.link_hash, '2026-11-01T09:05:00.000Z')).toEqual({ ...link, used_at: '2026-11-01T09:05:00.000Z' });
    expect(await sessions.same('spendLink', link.link_hash, '2026-11-01T09:06:00.000Z')).toBeUndefined();
    expect(await sessions.same('linkByHash', link.link_hash)).toEqual({ ...link, used_at: '2026-11-01T09:05:00.000Z' });
    expect(await sessions.same('linkByHash', 'no-such-hash')).toBeUndefined();
  });

  it('reads a session with its member\'s current role, records activity, ends it once, and loses the role when the user leaves', async () => {
    const { workspaceId, userId } = await twins.addWorkspaceWithOwner();
    const session = sessionRow(workspaceId, userId, null);
    await sessions.same('insertSession', session);
    expect(await sessions.refused('insertSession', { ...sessionRow(workspaceId, userId, null), role: 'admin' as never })).toBe('check');
    expect(await sessions.same('principalByHash', session.session_hash)).toEqual({
      session_id: session.id, workspace_id: workspaceId, workspace_name: 'Twin workspace', user_id: userId, user_name: 'Owner',
      user_email: `${userId}@example.com`, token_id: null, token_revoked_at: null, signed_in_role: 'owner', member_role: 'owner',
      created_at: session.created_at, last_seen_at: session.last_seen_at, ended_at: null,
    });
    expect(await sessions.same('touch', session.id, '2026-11-01T09:20:00.000Z')).toBe(true);
    expect(await sessions.same('end', session.id, '2026-11-01T09:30:00.000Z')).toBe(true);
    expect(await sessions.same('end', session.id, '2026-11-01T09:31:00.000Z')).toBe(false);
    expect(await sessions.same('touch', session.id, '2026-11-01T09:32:00.000Z')).toBe(false);
    await accounts.same('deleteMembership', workspaceId, userId);
    expect(await sessions.same('principalByHash', session.session_hash)).toMatchObject({
      last_seen_at: '2026-11-01T09:20:00.000Z', ended_at: '2026-11-01T09:30:00.000Z', member_role: null,
    });
  });
});
