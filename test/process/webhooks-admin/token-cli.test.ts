import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTestMember, createTestWorkspace } from '../../support/accounts.js';
import { adminClient } from '../../support/admin.js';
import { useSqliteTestServer } from '../../support/test-server.js';
import { MEMBER_TOKEN_PREFIX } from '../../../src/keys/member-tokens.js';
import { hashToken } from '../../../src/keys/secret-token.js';
import { TOKEN_INVALID } from '../../integration/webhooks-admin/helpers.js';
import { CLI, runCliInProcess } from '../../cli/run-cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// A SQLite file: the command line in a process of its own is handed it (`--db`).
const server = useSqliteTestServer();

/** The real command line, as a separate process, on the server's database file. */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...CLI, ...args, '--db', server.address], { cwd: root },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
  });
}

/**
 * The same command line in this process (the entry the bin uses, with its own streams): a process
 * start costs more CPU than the command, and the first test runs both commands in processes of their own.
 */
function cliInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCliInProcess([...args, '--db', server.address]);
}

describe('npm run cli -- token create / token revoke', () => {
  it('when an owner\'s token is created, prints it once as JSON, stores only its hash, and it works until revoked', async () => {
    const workspace = await createTestWorkspace(server.store);
    const created = await cli(['token', 'create', '--workspace', workspace.workspaceId, '--user', workspace.ownerId, '--name', 'Ops laptop', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const output = JSON.parse(created.stdout) as Record<string, string>;
    expect(output).toEqual({
      id: expect.any(String),
      token: expect.stringMatching(new RegExp(`^${MEMBER_TOKEN_PREFIX}[0-9A-Za-z]{38}$`)),
      prefix: output.token!.slice(0, MEMBER_TOKEN_PREFIX.length + 4),
      name: 'Ops laptop',
      workspace_id: workspace.workspaceId,
      user_id: workspace.ownerId,
      created_at: expect.any(String),
    });
    const row = (await server.store.memberTokens.get(output.id!))!;
    expect(row.token_hash).toBe(hashToken(output.token!));
    expect(JSON.stringify(row)).not.toContain(output.token!);

    const call = adminClient(server.url, workspace.workspaceId, output.token!);
    expect((await call({ path: '/webhooks' })).status).toBe(200);

    const revoked = await cli(['token', 'revoke', '--token', output.id!, '--json']);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ id: output.id, revoked_at: expect.any(String) });
    const after = await call({ path: '/webhooks' });
    expect(after.status).toBe(401);
    expect(after.body).toEqual(TOKEN_INVALID);
  });

  it('when the user is not a member of the workspace or the token is unknown, exits 1 with one line naming why', async () => {
    const workspace = await createTestWorkspace(server.store);
    const stranger = (await createTestWorkspace(server.store)).ownerId;
    const refused = await cliInProcess(['token', 'create', '--workspace', workspace.workspaceId, '--user', stranger, '--json']);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `error: user ${stranger} is not a member of workspace ${workspace.workspaceId}\n` });
    const unknown = await cliInProcess(['token', 'revoke', '--token', 'no-such-token']);
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'error: member token no-such-token does not exist\n' });
  });

  it('when a plain member gets a token, it reaches what members may and nothing more', async () => {
    const workspace = await createTestWorkspace(server.store);
    const memberId = await createTestMember(server.store, workspace, 'member');
    const created = await cliInProcess(['token', 'create', '--workspace', workspace.workspaceId, '--user', memberId, '--json']);
    const { token, name } = JSON.parse(created.stdout) as { token: string; name: string };
    expect(name).toBe('Administration token');
    const call = adminClient(server.url, workspace.workspaceId, token);
    expect((await call({ path: '/members' })).status).toBe(200);
    expect((await call({ path: '/webhooks' })).status).toBe(403);
  });
});
