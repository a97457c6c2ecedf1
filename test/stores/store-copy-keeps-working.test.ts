import path from 'node:path';
import pino from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_DEMO_OPTIONS, generateDemoData } from '../../src/demo/generate-demo-data.js';
import { writeImportFile } from '../../src/demo/write-import-file.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { jsonOf, runCliInProcess, tempDatabase } from '../cli/run-cli.js';
import { send } from '../support/http.js';
import { createPostgresDatabase, postgresAvailable } from '../support/postgres.js';
import { until } from '../support/wait.js';
import { answer, startReceiver, type ReceivedRequest } from '../support/webhook-receiver.js';
import { verifyDelivery } from '../integration/webhooks-delivery/helpers.js';

/** The demo workspace, smaller than `npm start`'s so the test stays quick: every area still has records. */
const SMALL_DEMO = { ...DEFAULT_DEMO_OPTIONS, prompts: 6, days: 8, answersPerDay: 1 };

/** The service as `serve` starts it, over `database` (a file or a postgres:// URL), with webhooks allowed to reach loopback. */
async function serveOver(database: string): Promise<RunningServer> {
  const where: Record<string, string> = database.startsWith('postgres') ? { DATABASE_URL: database } : { DATABASE_PATH: database };
  const config = loadConfig({ ...where, PORT: '0', HOST: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_INTERVAL_MS: '20' });
  const running = await startServer(config, { logger: pino({ level: 'silent' }) });
  onTestFinished(async () => {
    running.server.closeAllConnections();
    await running.close();
  });
  return running;
}

/** One CLI command on `db`, as a user types it, its `--json` answer. */
async function cli(db: string, ...args: string[]): Promise<Record<string, unknown>> {
  return jsonOf(await runCliInProcess([...args, '--db', db, '--json']));
}

/** What a user holds after setting a workspace up on SQLite: plain keys and tokens (only their hashes are stored) and the webhook's secret. */
interface Handed {
  workspaceId: string;
  keys: { all: string; visibilityOnly: string; revoked: string };
  tokens: { owner: string; member: string; revoked: string };
  webhook: { id: string; secret: string };
}

/** A SQLite file set up through the CLI and the HTTP administration API, as a user does it. */
async function setUpOnSqlite(file: string, receiverUrl: string): Promise<Handed> {
  const workspaceId = (await cli(file, 'workspace', 'create', '--name', 'Acme on SQLite')).id as string;
  const ownerId = (await cli(file, 'user', 'create', '--email', 'owner@acme.example', '--name', 'Owner')).id as string;
  const memberId = (await cli(file, 'user', 'create', '--email', 'member@acme.example', '--name', 'Member')).id as string;
  await cli(file, 'member', 'add', '--workspace', workspaceId, '--user', ownerId, '--role', 'owner');
  await cli(file, 'member', 'add', '--workspace', workspaceId, '--user', memberId, '--role', 'member');

  const demo = path.join(path.dirname(file), 'demo.ndjson');
  await writeImportFile(demo, generateDemoData({ ...SMALL_DEMO, idNamespace: workspaceId }));
  expect((await runCliInProcess(['import', '--workspace', workspaceId, '--no-events', demo, '--db', file])).code).toBe(0);

  const key = async (name: string, ...scopes: string[]) =>
    (await cli(file, 'key', 'create', '--workspace', workspaceId, '--user', ownerId, '--name', name, ...(scopes.length > 0 ? ['--scopes', scopes.join(',')] : []))) as { id: string; key: string };
  const all = await key('Everything');
  const visibilityOnly = await key('Dashboard', 'visibility:read');
  const revoked = await key('Old laptop');
  await cli(file, 'key', 'revoke', '--key', revoked.id);
  const token = async (userId: string) => (await cli(file, 'token', 'create', '--workspace', workspaceId, '--user', userId, '--name', 'Ops')) as { id: string; token: string };
  const owner = await token(ownerId);
  const member = await token(memberId);
  const revokedToken = await token(ownerId);
  await cli(file, 'token', 'revoke', '--token', revokedToken.id);

  // The webhook through the administration API, as an owner subscribes one; its secret is shown this once.
  const sqlite = await serveOver(file);
  const created = await send(sqlite.url, {
    method: 'POST',
    path: `/api/workspace/${workspaceId}/webhooks`,
    key: owner.token,
    body: { url: receiverUrl, name: 'Publishing', events: ['content.status_updated', 'research_batch.status_updated', 'agent_task.status_updated', 'topic.status_updated', 'iq.status_updated', 'sitemap_url.status_updated'] },
  });
  expect(created.status, created.text).toBe(201);
  const webhook = (created.body as { data: { webhook: { id: string }; secret: string } }).data;
  expect(webhook.secret).toMatch(/^whsec_/);
  await sqlite.close();

  return {
    workspaceId,
    keys: { all: all.key, visibilityOnly: visibilityOnly.key, revoked: revoked.key },
    tokens: { owner: owner.token, member: member.token, revoked: revokedToken.token },
    webhook: { id: webhook.webhook.id, secret: webhook.secret },
  };
}

const statusOf = async (url: string, requestPath: string, credential: string, method = 'GET') =>
  (await send(url, { method, path: requestPath, key: credential })).status;

describe.skipIf(!postgresAvailable())('store copy: what users were handed on SQLite keeps working on PostgreSQL', () => {
  it('every key and member token authenticates with its scopes and role, revoked ones stay revoked, and deliveries are signed with the copied secret', async () => {
    const receiver = await startReceiver(() => answer(204));
    onTestFinished(() => receiver.close());
    const { file, cleanup } = tempDatabase();
    onTestFinished(cleanup);
    const handed = await setUpOnSqlite(file, receiver.url);

    const target = await createPostgresDatabase('wsapi_moved');
    const copy = await runCliInProcess(['store', 'copy', '--from', file, '--to', target]);
    expect(copy.code, copy.stderr).toBe(0);
    const server = await serveOver(target);
    const admin = `/api/workspace/${handed.workspaceId}`;

    // API keys: a read within their scopes, a read outside them, and the revoked one.
    expect(await statusOf(server.url, '/api/v1/me', handed.keys.all)).toBe(200);
    expect(await statusOf(server.url, '/api/v1/visibility/prompts', handed.keys.all)).toBe(200);
    expect(await statusOf(server.url, '/api/v1/content/articles', handed.keys.all)).toBe(200);
    expect(await statusOf(server.url, '/api/v1/visibility/prompts', handed.keys.visibilityOnly)).toBe(200);
    expect(await statusOf(server.url, '/api/v1/content/articles', handed.keys.visibilityOnly)).toBe(403);
    expect(await statusOf(server.url, '/api/v1/me', handed.keys.revoked)).toBe(401);

    // Member tokens: the owner's administration call, a member's read and refused write, and the revoked one.
    expect(await statusOf(server.url, `${admin}/webhooks`, handed.tokens.owner)).toBe(200);
    expect(await statusOf(server.url, `${admin}/api-keys`, handed.tokens.owner)).toBe(200);
    expect(await statusOf(server.url, `${admin}/members`, handed.tokens.member)).toBe(200);
    expect(await statusOf(server.url, `${admin}/webhooks`, handed.tokens.member)).toBe(403);
    expect(await statusOf(server.url, `${admin}/webhooks`, handed.tokens.revoked)).toBe(401);
    // The key revoked on SQLite is listed as revoked on PostgreSQL too.
    const keys = (await send(server.url, { path: `${admin}/api-keys`, key: handed.tokens.owner })).body as components['schemas']['WorkspaceApiKeyListEnvelope'];
    expect(keys.data.items.filter((k) => k.revoked_at !== null).map((k) => k.name)).toEqual(['Old laptop']);

    // A test delivery, then an event the dispatcher sends: both signed with the secret handed out on SQLite.
    const tested = await send(server.url, { method: 'POST', path: `${admin}/webhooks/${handed.webhook.id}/test`, key: handed.tokens.owner });
    expect(tested.status, tested.text).toBe(200);
    expect((tested.body as { data: { success: boolean } }).data.success).toBe(true);
    const simulated = await runCliInProcess(['simulate', '--workspace', handed.workspaceId, '--count', '1', '--interval', '1', '--db', target, '--json']);
    expect(simulated.code, simulated.stderr).toBe(0);
    expect((jsonOf(simulated).events as number)).toBeGreaterThan(0);
    await until(() => receiver.requests.length >= 2, 15_000, 'the dispatched delivery');
    const [test, dispatched] = receiver.requests as [ReceivedRequest, ReceivedRequest];
    expect(verifyDelivery(handed.webhook.secret, test)).toMatchObject({ is_test: true });
    expect(verifyDelivery(handed.webhook.secret, dispatched)).toMatchObject({ workspace_id: handed.workspaceId });
    expect(() => verifyDelivery(`whsec_${Buffer.alloc(24).toString('base64')}`, dispatched)).toThrow();
  });
});
