import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook, WEBHOOK_NOT_FOUND } from './helpers.js';
import type { FieldError } from '../../../src/errors/field-errors.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });
const strict = useTestServer({ allowPrivateWebhookTargets: false, resolveWebhookHost: async () => ['93.184.216.34'] });

type WebhookBody = { data: Record<string, unknown> & { updated_at: string; created_at: string; secret_masked: string } };

describe('PATCH /api/workspace/{workspace_id}/webhooks/{webhook_id}', () => {
  it('when events are sent, replaces the whole list and keeps every other field', async () => {
    const { call } = await adminWorld(server);
    const { id, response: created } = await createWebhook(call, {
      url: 'http://127.0.0.1:9/hooks',
      description: 'First version',
      events: ['content.status_updated', 'topic.status_updated', 'iq.status_updated'],
    });
    const before = (created.body as { data: { webhook: WebhookBody['data'] } }).data.webhook;
    const response = await call({ method: 'PATCH', path: `/webhooks/${id}`, body: { events: ['sitemap_url.status_updated'] } });
    expect(response.status).toBe(200);
    const after = (response.body as WebhookBody).data;
    expect(response.body).toEqual({ code: 2000, messages: 'OK', data: { ...before, events: ['sitemap_url.status_updated'], updated_at: after.updated_at } });
    expect(after.updated_at >= before.created_at).toBe(true);
  });

  it('when url, name and description are sent, changes them; a null description clears it', async () => {
    const { call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/old', description: 'Old' });
    const response = await call({ method: 'PATCH', path: `/webhooks/${id}`, body: { url: 'http://127.0.0.1:9/new', name: 'Renamed', description: null } });
    expect(response.status).toBe(200);
    expect((response.body as WebhookBody).data).toMatchObject({ url: 'http://127.0.0.1:9/new', name: 'Renamed', description: null, events: ['content.status_updated'] });
  });

  it('when the body sets nothing, is unknown or invalid, answers 422 naming the fields', async () => {
    const { call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
    const cases: Array<[unknown, string, FieldError]> = [
      [{}, 'Invalid parameters: body must set at least one field.', { in: 'body', name: '', message: 'must set at least one field' }],
      [{ secret: 'whsec_mine' }, 'Invalid parameters: body.secret is not a known field.', { in: 'body', name: 'secret', message: 'is not a known field' }],
      [{ events: [] }, 'Invalid parameters: body.events must NOT have fewer than 1 items.',
        { in: 'body', name: 'events', message: 'must NOT have fewer than 1 items' }],
      [{ enabled: false }, 'Invalid parameters: body.enabled is not a known field.', { in: 'body', name: 'enabled', message: 'is not a known field' }],
      [{ name: '  ' }, 'Invalid parameters: body.name must not be blank.', { in: 'body', name: 'name', message: 'must not be blank' }],
    ];
    for (const [body, messages, error] of cases) {
      const response = await call({ method: 'PATCH', path: `/webhooks/${id}`, body });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ code: 4220, messages, data: { errors: [error] } });
    }
  });

  it('when the new URL targets a private address with the switch off, answers 422 naming url and keeps the old one', async () => {
    const { call } = await adminWorld(strict);
    const { id } = await createWebhook(call, { url: 'https://hooks.example.com/in' });
    const response = await call({ method: 'PATCH', path: `/webhooks/${id}`, body: { url: 'https://[::ffff:7f00:1]/in' } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: body.url resolves to a loopback address (::ffff:7f00:1).',
      data: { errors: [{ in: 'body', name: 'url', message: 'resolves to a loopback address (::ffff:7f00:1)' }] },
    });
    expect(((await call({ path: `/webhooks/${id}` })).body as WebhookBody).data.url).toBe('https://hooks.example.com/in');
  });

  it('when the webhook is unknown, answers 404', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ method: 'PATCH', path: `/webhooks/${randomUUID()}`, body: { name: 'x' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(WEBHOOK_NOT_FOUND);
  });
});
