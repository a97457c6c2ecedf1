import { describe, expect, it } from 'vitest';
import { createTestMember } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook, expectRateLimitHeaders, receiver, ROLE_FORBIDDEN } from './helpers.js';

// A name resolver for the server whose switch is off: public names resolve to a documentation-free
// public address, the others to what their name says.
const DNS: Record<string, string[]> = {
  'hooks.public.test': ['93.184.216.34'],
  'internal.test': ['10.1.2.3'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
};

const server = useTestServer({ allowPrivateWebhookTargets: true });
const strict = useTestServer({
  allowPrivateWebhookTargets: false,
  resolveWebhookHost: async (host) => {
    const found = DNS[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  },
});

const body = (url: string) => ({ url, name: 'Publishing pipeline', events: ['content.status_updated'] });

describe('POST /api/workspace/{workspace_id}/webhooks', () => {
  it('when an owner subscribes an endpoint, answers 201 with the webhook and its secret, shown this once', async () => {
    const { call } = await adminWorld(server);
    const r = await receiver();
    const response = await call({
      method: 'POST',
      path: '/webhooks',
      body: { url: r.url, name: '  Publishing pipeline ', description: 'Rebuilds the blog.', events: ['topic.status_updated', 'content.status_updated', 'topic.status_updated'] },
    });
    expect(response.status).toBe(201);
    const { data } = response.body as { data: { webhook: { id: string; created_at: string }; secret: string } };
    expect(response.body).toEqual({
      code: 2010,
      messages: 'Created. Store the secret now: it is not shown again.',
      data: {
        webhook: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          url: r.url,
          name: 'Publishing pipeline',
          description: 'Rebuilds the blog.',
          events: ['content.status_updated', 'topic.status_updated'],
          enabled: true,
          secret_masked: `whsec_…${data.secret.slice(-4)}`,
          previous_secret_expires_at: null,
          consecutive_failures: 0,
          disabled_at: null,
          created_at: data.webhook.created_at,
          updated_at: data.webhook.created_at,
        },
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      },
    });
    expect(Buffer.from(data.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expectRateLimitHeaders(response);
    const fetched = await call({ path: `/webhooks/${data.webhook.id}` });
    expect(fetched.text).not.toContain(data.secret);
    expect(r.connections()).toBe(0);
  });

  it('when two webhooks are created, each gets its own secret', async () => {
    const { call } = await adminWorld(server);
    const r = await receiver();
    const first = await createWebhook(call, { url: r.url });
    const second = await createWebhook(call, { url: r.url });
    expect(first.secret).not.toBe(second.secret);
  });

  it('when the body is invalid, answers 422 naming every offending field', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ method: 'POST', path: '/webhooks', body: { url: 'not a url', name: '', events: ['content.deleted'], colour: 'red' } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      code: 4220,
      messages: expect.any(String),
      data: { errors: expect.any(Array) },
    });
    const { messages, data } = response.body as { messages: string; data: { errors: Array<{ in: string; name: string }> } };
    for (const field of ['url', 'name', 'events.0', 'colour']) expect(messages).toContain(`body.${field}`);
    expect(data.errors.map((e) => `${e.in}.${e.name}`).sort()).toEqual(['body.colour', 'body.events.0', 'body.name', 'body.url']);
  });

  it('when required fields are missing or events is empty, answers 422 naming them', async () => {
    const { call } = await adminWorld(server);
    const missing = await call({ method: 'POST', path: '/webhooks', body: { name: 'x' } });
    expect(missing.status).toBe(422);
    expect((missing.body as { messages: string }).messages).toMatch(/url/);
    expect((missing.body as { messages: string }).messages).toMatch(/events/);
    const empty = await call({ method: 'POST', path: '/webhooks', body: { url: 'http://127.0.0.1:9/x', name: 'x', events: [] } });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: body.events must NOT have fewer than 1 items.',
      data: { errors: [{ in: 'body', name: 'events', message: 'must NOT have fewer than 1 items' }] },
    });
    const blank = await call({ method: 'POST', path: '/webhooks', body: { url: 'http://127.0.0.1:9/x', name: '   ', events: ['iq.status_updated'] } });
    expect(blank.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: body.name must not be blank.',
      data: { errors: [{ in: 'body', name: 'name', message: 'must not be blank' }] },
    });
  });

  it('when a member who is not an owner tries, answers 403 and creates nothing', async () => {
    const { workspace, call } = await adminWorld(server);
    const memberId = await createTestMember(server.store, workspace, 'member');
    const asMember = adminClient(server.url, workspace.workspaceId, (await createTestMemberToken(server.store, workspace, memberId)).token);
    const response = await asMember({ method: 'POST', path: '/webhooks', body: body('http://127.0.0.1:9/x') });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(ROLE_FORBIDDEN);
    expect((await call({ path: '/webhooks' })).body).toEqual({ code: 2000, messages: 'OK', data: { items: [], next_cursor: null } });
  });
});

describe('POST /api/workspace/{workspace_id}/webhooks with private targets refused (the production setting)', () => {
  const refusedUrls: Array<[string, string]> = [
    ['https://127.0.0.1/hooks', 'body.url resolves to a loopback address (127.0.0.1).'],
    ['https://2130706433/hooks', 'body.url resolves to a loopback address (127.0.0.1).'],
    ['https://0x7f.0.0.1/hooks', 'body.url resolves to a loopback address (127.0.0.1).'],
    ['https://0177.0.0.1/hooks', 'body.url resolves to a loopback address (127.0.0.1).'],
    ['https://[::1]/hooks', 'body.url resolves to a loopback address (::1).'],
    ['https://[::ffff:127.0.0.1]/hooks', 'body.url resolves to a loopback address (::ffff:7f00:1).'],
    ['https://localhost/hooks', 'body.url host localhost is a loopback name.'],
    ['https://10.0.0.8/hooks', 'body.url resolves to a private address (10.0.0.8).'],
    ['https://192.168.1.20/hooks', 'body.url resolves to a private address (192.168.1.20).'],
    ['https://169.254.169.254/latest/meta-data', 'body.url resolves to a link-local address (169.254.169.254).'],
    ['https://[fd00::1]/hooks', 'body.url resolves to an unique-local address (fd00::1).'],
    ['https://internal.test/hooks', 'body.url resolves to a private address (10.1.2.3).'],
    ['https://mixed.test/hooks', 'body.url resolves to a loopback address (127.0.0.1).'],
    ['https://metadata.test/hooks', 'body.url resolves to a link-local address (169.254.169.254).'],
    ['https://nowhere.test/hooks', 'body.url host nowhere.test could not be resolved (ENOTFOUND).'],
    ['http://hooks.public.test/hooks', 'body.url must use https.'],
    ['ftp://hooks.public.test/hooks', 'body.url scheme ftp is not allowed (only http and https).'],
  ];

  it.each(refusedUrls)('when the URL is %s, answers 422 naming url and saves nothing', async (url, message) => {
    const { call } = await adminWorld(strict);
    const response = await call({ method: 'POST', path: '/webhooks', body: body(url) });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      code: 4220,
      messages: `Invalid parameters: ${message}`,
      data: { errors: [{ in: 'body', name: 'url', message: message.replace(/^body\.url (.*)\.$/, '$1') }] },
    });
    expect((await call({ path: '/webhooks' })).body).toEqual({ code: 2000, messages: 'OK', data: { items: [], next_cursor: null } });
  });

  it('when the URL points at a live loopback server, refuses it without ever connecting', async () => {
    const { call } = await adminWorld(strict);
    const sentinel = await receiver();
    const https = sentinel.url.replace('http:', 'https:');
    for (const url of [sentinel.url, https, https.replace('127.0.0.1', '[::ffff:127.0.0.1]')]) {
      expect((await call({ method: 'POST', path: '/webhooks', body: body(url) })).status).toBe(422);
    }
    expect(sentinel.connections()).toBe(0);
  });

  it('when an HTTPS URL resolves only to public addresses, answers 201', async () => {
    const { call } = await adminWorld(strict);
    const response = await call({ method: 'POST', path: '/webhooks', body: body('https://hooks.public.test/workspace-events') });
    expect(response.status).toBe(201);
  });
});
