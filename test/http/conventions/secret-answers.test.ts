import { describe, expect, it } from 'vitest';
import { send, type ObservedResponse } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook } from '../../integration/webhooks-admin/helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

const headersOf = (res: ObservedResponse) => [res.status, res.headers.get('cache-control'), res.headers.get('x-content-type-options')];

describe('answers that carry a secret, and every JSON answer', () => {
  it('a new key, a new webhook and a rotated secret answer Cache-Control: no-store and X-Content-Type-Options: nosniff', async () => {
    const { call } = await adminWorld(server);
    expect(headersOf(await call({ method: 'POST', path: '/api-keys', body: { name: 'Secret holder' } }))).toEqual([201, 'no-store', 'nosniff']);
    const webhook = await createWebhook(call, { url: 'http://127.0.0.1:9/hook' });
    expect(headersOf(webhook.response)).toEqual([201, 'no-store', 'nosniff']);
    expect(headersOf(await call({ method: 'POST', path: `/webhooks/${webhook.id}/rotate-secret` }))).toEqual([200, 'no-store', 'nosniff']);
  });

  it('reads, refusals and the service\'s own routes answer X-Content-Type-Options: nosniff, reads staying private, no-cache', async () => {
    const { workspace, call } = await adminWorld(server);
    expect(headersOf(await send(server.url, { path: '/api/v1/me' }, workspace.key))).toEqual([200, 'private, no-cache', 'nosniff']);
    expect(headersOf(await send(server.url, { path: '/api/v1/me' }))).toEqual([401, 'private, no-cache', 'nosniff']);
    expect(headersOf(await call({ path: '/api-keys' }))).toEqual([200, 'private, no-cache', 'nosniff']);
    expect((await send(server.url, { path: '/api/v1/nowhere' }, workspace.key)).headers.get('x-content-type-options')).toBe('nosniff');
    expect((await send(server.url, { path: '/healthz' })).headers.get('x-content-type-options')).toBe('nosniff');
    expect((await send(server.url, { path: '/openapi.json' })).headers.get('x-content-type-options')).toBe('nosniff');
  });
});
