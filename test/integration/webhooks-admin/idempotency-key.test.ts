import { randomUUID } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { rowsOf } from '../../support/database-rows.js';
import { addressOf, startTestServerForThisTest } from '../../support/test-server.js';
import { startTestServerThroughCutter } from '../../support/postgres-commit-cutter.js';
import { onPostgres } from '../../support/store-kind.js';
import { adminWorld, createWebhook, receiver } from './helpers.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A second store over the same database, as a second instance of the service opens it. */
async function secondStoreOver(store: Store): Promise<Store> {
  const second = await openStore(addressOf(store), { serving: true });
  onTestFinished(() => second.close());
  return second;
}

describe('Idempotency-Key on the administration API', () => {
  it('a retry with the same key and body gets the first answer with Idempotent-Replayed: true, and acts no more', async () => {
    const server = await startTestServerForThisTest({ allowPrivateWebhookTargets: true });
    const { call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await call({ method: 'POST', path: `/webhooks/${id}/disable`, headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Enabled again by another request: a replay must not disable it a second time.
    expect((await call({ method: 'POST', path: `/webhooks/${id}/enable` })).status).toBe(200);
    const retry = await call({ method: 'POST', path: `/webhooks/${id}/disable`, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await call({ path: `/webhooks/${id}` })).body).toMatchObject({ data: { enabled: true } });
  });

  it('a test delivery refused (an unknown webhook: 404) keeps no claim: its retry with the same key is answered afresh, not 409', async () => {
    const server = await startTestServerForThisTest();
    const { call } = await adminWorld(server);
    const headers = { 'Idempotency-Key': randomUUID() };
    const path = `/webhooks/${randomUUID()}/test`;
    const answers = [];
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const res = await call({ method: 'POST', path, body: { event: 'content.status_updated' }, headers });
      answers.push([res.status, (res.body as { code: number }).code, res.headers.get('idempotent-replayed')]);
    }
    expect(answers).toEqual([[404, 4040, null], [404, 4040, null]]);
  });

  it('the same key with another body is refused 422 (4221) naming the header, and nothing is done', async () => {
    const server = await startTestServerForThisTest();
    const { call, workspace } = await adminWorld(server);
    const headers = { 'Idempotency-Key': 'order-7' };
    expect((await call({ method: 'POST', path: '/api-keys', body: { name: 'First' }, headers })).status).toBe(201);
    const other = await call({ method: 'POST', path: '/api-keys', body: { name: 'Second' }, headers });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      code: 4221,
      messages: 'Invalid parameters: header.Idempotency-Key was first used with another request (another operation, path or body); use a new key for a new request.',
      data: { errors: [{ in: 'header', name: 'Idempotency-Key', message: 'was first used with another request (another operation, path or body); use a new key for a new request' }] },
    });
    expect((await server.store.apiKeys.listByWorkspace(workspace.workspaceId)).map((k) => k.name).filter((name) => name !== 'Test key')).toEqual(['First']);
  });

  it('a key longer than 255 characters or with a control character is a 422 (4220) naming the header', async () => {
    const server = await startTestServerForThisTest();
    const { call } = await adminWorld(server);
    for (const key of ['k'.repeat(256), 'tab\there']) {
      const refused = await call({ method: 'POST', path: '/api-keys', body: { name: 'K' }, headers: { 'Idempotency-Key': key } });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 4220, data: { errors: [{ in: 'header', name: 'idempotency-key' }] } });
    }
  });

  it('a retry while the first request still runs gets 409 (4091) with Retry-After, then the first answer once it is done', async () => {
    const server = await startTestServerForThisTest({ allowPrivateWebhookTargets: true, webhookTimeoutMs: 1_500 });
    const { call } = await adminWorld(server);
    const r = await receiver(() => 'hang');
    const { id } = await createWebhook(call, { url: r.url });
    const request = { method: 'POST', path: `/webhooks/${id}/test`, body: { event: 'content.status_updated' }, headers: { 'Idempotency-Key': randomUUID() } };
    const first = call(request);
    await r.waitForRequests(1);
    const during = await call(request);
    expect(during.status).toBe(409);
    expect(during.headers.get('retry-after')).toBe('1');
    expect(during.body).toEqual({ code: 4091, messages: 'A request with this Idempotency-Key is still running. Retry after Retry-After seconds to get its answer.', data: null });
    const answered = await first;
    expect(answered.status).toBe(200);
    const after = await call(request);
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(after.body).toEqual(answered.body);
    expect(r.requests).toHaveLength(1);
  });

  it('a key creation replayed answers 409 (4090) naming the key, its secret stored nowhere; past 24 hours the key is new again', async () => {
    let clock = new Date('2026-11-27T10:00:00.000Z');
    const server = await startTestServerForThisTest({ now: () => clock });
    const { call, workspace } = await adminWorld(server);
    const keysBefore = (await server.store.apiKeys.listByWorkspace(workspace.workspaceId)).length;
    const request = { method: 'POST', path: '/api-keys', body: { name: 'Dashboard' }, headers: { 'Idempotency-Key': 'create-dashboard-key' } };
    const first = await call(request);
    expect(first.status).toBe(201);
    const { api_key: created, key } = (first.body as { data: { api_key: { id: string }; key: string } }).data;
    const kept = await rowsOf(server.store, 'SELECT * FROM idempotency_keys WHERE workspace_id = ?', [workspace.workspaceId]);
    expect(kept).toEqual([expect.objectContaining({ state: 'done', status: 201, body: null, resource_id: created.id })]);
    expect(JSON.stringify(kept)).not.toContain(key.slice(9));

    clock = new Date(clock.getTime() + DAY_MS - 1);
    const replayed = await call(request);
    expect(replayed.status).toBe(409);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual({
      code: 4090,
      messages: `The first request with this Idempotency-Key succeeded for ${created.id}, and its answer carried a secret, which is shown once and never stored. If it was lost, revoke that resource and create another.`,
      data: null,
    });

    clock = new Date(clock.getTime() + 1);
    const afterExpiry = await call(request);
    expect(afterExpiry.status).toBe(201);
    expect((afterExpiry.body as { data: { api_key: { id: string } } }).data.api_key.id).not.toBe(created.id);
    expect(await server.store.apiKeys.listByWorkspace(workspace.workspaceId)).toHaveLength(keysBefore + 2);
  });

  it('across two instances over one database, a retry that reaches the other instance gets the first answer', async () => {
    const first = await startTestServerForThisTest({ allowPrivateWebhookTargets: true });
    const second = await startTestServerForThisTest({ allowPrivateWebhookTargets: true, store: await secondStoreOver(first.store) });
    const workspace = await createTestWorkspace(first.store);
    const { token } = await createTestMemberToken(first.store, workspace);
    const viaFirst = adminClient(first.url, workspace.workspaceId, token);
    const viaSecond = adminClient(second.url, workspace.workspaceId, token);
    const { id } = await createWebhook(viaFirst, { url: 'http://127.0.0.1:9/hooks' });
    const request = { method: 'POST', path: `/webhooks/${id}/rotate-secret`, body: { grace_period_seconds: 60 }, headers: { 'Idempotency-Key': randomUUID() } };
    const rotated = await viaFirst(request);
    expect(rotated.status).toBe(200);
    const retried = await viaSecond(request);
    expect(retried.status).toBe(409);
    expect(retried.body).toMatchObject({ code: 4090, messages: expect.stringContaining(id) as unknown });
    const disable = { method: 'POST', path: `/webhooks/${id}/disable`, headers: { 'Idempotency-Key': randomUUID() } };
    const disabled = await viaSecond(disable);
    const again = await viaFirst(disable);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(disabled.body);
  });
});

describe.skipIf(!onPostgres())('Idempotency-Key when the COMMIT is lost (PostgreSQL)', () => {
  /** A server whose connections to the test's database pass through a cutter, and an owner's client. */
  async function throughCutter() {
    const { server, direct, cutter } = await startTestServerThroughCutter();
    const { call, workspace } = await adminWorld(server);
    const keyNames = async () => (await direct.apiKeys.listByWorkspace(workspace.workspaceId)).map((k) => k.name).filter((name) => name !== 'Test key');
    return { cutter, call, keyNames };
  }

  it('when the COMMIT never reached the server, answers 503 (5030): known not committed; the retry creates the key once', async () => {
    const { cutter, call, keyNames } = await throughCutter();
    const request = { method: 'POST', path: '/api-keys', body: { name: 'Lost' }, headers: { 'Idempotency-Key': randomUUID() } };
    cutter.cutNextCommit('before');
    const refused = await call(request);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 5030, data: null });
    expect(await keyNames()).toEqual([]);
    expect((await call(request)).status).toBe(201);
    expect(await keyNames()).toEqual(['Lost']);
  });

  it('when the server committed and its answer was lost, the instance finds the kept answer and answers 201', async () => {
    const { cutter, call, keyNames } = await throughCutter();
    cutter.cutNextCommit('after');
    const created = await call({ method: 'POST', path: '/api-keys', body: { name: 'Committed' }, headers: { 'Idempotency-Key': randomUUID() } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ code: 2010, data: { api_key: { name: 'Committed' }, key: expect.stringMatching(/^wsk_live_/) as unknown } });
    expect(await keyNames()).toEqual(['Committed']);
  });

  it('when nothing can tell whether it committed, answers 503 (5031); the retry with the same key then settles it without acting twice', async () => {
    const { cutter, call, keyNames } = await throughCutter();
    const request = { method: 'POST', path: '/api-keys', body: { name: 'Unknown' }, headers: { 'Idempotency-Key': randomUUID() } };
    cutter.cutNextCommit('after-and-away');
    const unknown = await call(request);
    expect(unknown.status).toBe(503);
    expect(unknown.headers.get('retry-after')).toBe('1');
    expect(unknown.body).toEqual({
      code: 5031,
      messages: 'The database connection broke while the change was committing, so whether it took effect is unknown. '
        + 'Send the request again with the same Idempotency-Key: its first answer is kept if it took effect.',
      data: null,
    });
    cutter.refuseNew(false);
    const retried = await call(request);
    expect(retried.status).toBe(409);
    expect(retried.body).toMatchObject({ code: 4090 });
    expect(await keyNames()).toEqual(['Unknown']);
  });
});
