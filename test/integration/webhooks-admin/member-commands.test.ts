import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../../src/keys/api-keys.js';
import { runCliInProcess } from '../../cli/run-cli.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';

// The command line over the store this run tests (a SQLite file, or a PostgreSQL database), with a
// server over the same database so keys are tried as a client uses them.
const server = useTestServer();

async function cli(...args: string[]): Promise<Record<string, unknown>> {
  const result = await runCliInProcess([...args, '--db', server.address, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

async function ownerWithKey(): Promise<{ workspace: string; owner: string; other: string; key: { id: string; key: string } }> {
  const workspace = (await cli('workspace', 'create', '--name', 'Members')).id as string;
  const [owner, other] = await Promise.all(['a', 'b'].map(async (n) => (await cli('user', 'create', '--email', `${n}-${workspace}@example.test`, '--name', n)).id as string));
  await cli('member', 'add', '--workspace', workspace, '--user', owner!, '--role', 'owner');
  await cli('member', 'add', '--workspace', workspace, '--user', other!, '--role', 'owner');
  const key = await cli('key', 'create', '--workspace', workspace, '--user', other!, '--name', 'Integration') as { id: string; key: string };
  return { workspace, owner: owner!, other: other!, key };
}

const meStatus = async (key: string) => (await send(server.url, { path: '/api/v1/me', key })).status;

describe('member add and member remove', () => {
  it('when a member is removed and added again, the keys they created stay revoked', async () => {
    const { workspace, other, key } = await ownerWithKey();
    expect(await meStatus(key.key)).toBe(200);
    await cli('member', 'remove', '--workspace', workspace, '--user', other);
    expect(await meStatus(key.key)).toBe(401);
    await cli('member', 'add', '--workspace', workspace, '--user', other, '--role', 'owner');
    expect(await meStatus(key.key)).toBe(401);
    const listed = await cli('key', 'list', '--workspace', workspace) as { keys?: Array<{ id: string; revoked_at: string | null }> } & Record<string, unknown>;
    expect(JSON.stringify(listed)).toContain(key.id);
    expect(JSON.stringify(listed)).not.toContain('"revoked_at":null');
  });

  it('when an owner is demoted, lists the keys they created, which keep working; with --revoke-keys, revokes them', async () => {
    const { workspace, other, key } = await ownerWithKey();
    const demoted = await cli('member', 'add', '--workspace', workspace, '--user', other, '--role', 'member');
    expect(demoted).toMatchObject({ role: 'member', keys_revoked: false, api_keys: [{ id: key.id, name: 'Integration', revoked_at: null }] });
    expect(await meStatus(key.key)).toBe(200);
    const revoked = await cli('member', 'add', '--workspace', workspace, '--user', other, '--role', 'member', '--revoke-keys');
    expect(revoked).toMatchObject({ role: 'member', keys_revoked: true, api_keys: [{ id: key.id, revoked_at: expect.any(String) }] });
    expect(await meStatus(key.key)).toBe(401);
  });

  it('refuses to demote or remove the last owner, changing nothing', async () => {
    const { workspace, owner, other } = await ownerWithKey();
    await cli('member', 'remove', '--workspace', workspace, '--user', other);
    for (const args of [['member', 'add', '--workspace', workspace, '--user', owner, '--role', 'member'], ['member', 'remove', '--workspace', workspace, '--user', owner]]) {
      const result = await runCliInProcess([...args, '--db', server.address]);
      expect([result.code, result.stderr.trim()]).toEqual([1, 'error: the workspace must keep at least one owner: make another member an owner first']);
    }
  });
});

describe('key update', () => {
  it('renames a key and removes a scope, which the next read already misses; never widens, and refuses a revoked key', async () => {
    const { workspace, key } = await ownerWithKey();
    const visibility = async () => (await send(server.url, { path: '/api/v1/visibility/prompts', key: key.key })).status;
    expect(await visibility()).toBe(200);
    const updated = await cli('key', 'update', '--key', key.id, '--name', 'Integration (narrow)', '--remove-scopes', 'visibility:read,iq:read');
    expect(updated).toMatchObject({ id: key.id, name: 'Integration (narrow)', scopes: ['workspace:read', 'contentmap:read', 'content:read'] });
    expect(JSON.stringify(updated)).not.toContain(key.key);
    expect(await visibility()).toBe(403);
    expect(await meStatus(key.key)).toBe(200);

    const notHeld = await runCliInProcess(['key', 'update', '--key', key.id, '--remove-scopes', 'iq:read', '--db', server.address]);
    expect(notHeld.code).toBe(1);
    expect(notHeld.stderr).toContain('does not hold iq:read');
    // Removing every scope it holds would leave a key that reaches nothing: revoking says so.
    const all = await runCliInProcess(['key', 'update', '--key', key.id, '--remove-scopes', 'workspace:read,contentmap:read,content:read', '--db', server.address]);
    expect([all.code, all.stderr.trim()]).toEqual([1, `error: key ${key.id}: Invalid parameters: body.scopes must keep at least one scope: to take them all away, revoke the key.`]);
    const blank = await runCliInProcess(['key', 'update', '--key', key.id, '--name', '  ', '--db', server.address]);
    expect([blank.code, blank.stderr.trim()]).toEqual([1, `error: key ${key.id}: Invalid parameters: body.name must not be blank.`]);

    await cli('key', 'revoke', '--key', key.id);
    const revoked = await runCliInProcess(['key', 'update', '--key', key.id, '--name', 'Revived', '--db', server.address]);
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toContain('revoked');
    const listed = await cli('key', 'list', '--workspace', workspace) as { keys: Array<{ id: string; name: string }> };
    expect(listed.keys.find((k) => k.id === key.id)).toMatchObject({ name: 'Integration (narrow)' });
  });
});

describe('key create', () => {
  it('refuses the 101st active key of a workspace, as the API does, with one line naming the limit and exit code 1; revoking one makes room', async () => {
    const { workspace, other, key } = await ownerWithKey();
    for (let n = 2; n <= 100; n += 1) await createApiKey(server.store, { workspaceId: workspace, userId: other, name: `Seeded ${n}`, maxActive: 100 });
    const create = ['key', 'create', '--workspace', workspace, '--user', other, '--name', 'One too many', '--db', server.address];
    const refused = await runCliInProcess(create);
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([1, '',
      `error: workspace ${workspace} already holds 100 active API keys, as many as it may (MAX_ACTIVE_API_KEYS): revoke one first (key revoke --key ID)\n`]);
    expect((await cli('key', 'list', '--workspace', workspace) as { keys: unknown[] }).keys).toHaveLength(100);
    await cli('key', 'revoke', '--key', key.id);
    expect((await runCliInProcess(create)).code).toBe(0);
  });
});
