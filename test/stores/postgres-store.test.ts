import { hashToken } from '../../src/keys/secret-token.js';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { jsonOf, runCliInProcess } from '../cli/run-cli.js';
import { createPostgresDatabase, postgresAvailable } from '../support/postgres.js';

describe.skipIf(!postgresAvailable())('the service on PostgreSQL: commands and the store open a postgres:// address', () => {
  it('commands given --db postgres://… create a workspace, its owner and a key that the store opened on the same URL reads back', async () => {
    const url = await createPostgresDatabase('wsapi_store');
    const cli = async (args: string[]) => jsonOf(await runCliInProcess([...args, '--db', url, '--json']));
    const workspace = await cli(['workspace', 'create', '--name', 'Acme on PostgreSQL']);
    const user = await cli(['user', 'create', '--email', 'ada@acme.example', '--name', 'Ada']);
    await cli(['member', 'add', '--workspace', String(workspace.id), '--user', String(user.id), '--role', 'owner']);
    const key = await cli(['key', 'create', '--workspace', String(workspace.id), '--user', String(user.id), '--name', 'ci']);

    const store = await openStore(url);
    try {
      expect(store.kind).toBe('postgres');
      await expect(store.ping()).resolves.toBeUndefined();
      expect(await store.accounts.getWorkspace(String(workspace.id))).toMatchObject({ name: 'Acme on PostgreSQL' });
      const hash = hashToken(String(key.key));
      expect(await store.apiKeys.principalByHash(hash)).toMatchObject({ workspace_id: workspace.id, user_id: user.id, member_role: 'owner' });
    } finally {
      await store.close();
    }
  });

  it('a PostgreSQL that does not answer is one line naming the server without its password, exit code 1', async () => {
    const result = await runCliInProcess(['workspace', 'create', '--name', 'X', '--db', 'postgres://app:s3cret@127.0.0.1:1/none']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: cannot reach PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/none: .+\n$/);
    expect(result.stderr).not.toContain('s3cret');
  });

  it('an address of another database is refused in one line, exit code 1', async () => {
    const result = await runCliInProcess(['workspace', 'create', '--name', 'X', '--db', 'mysql://app:s3cret@db/x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: unsupported database address mysql:\/\/…/);
  });
});
