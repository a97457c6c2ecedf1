import { describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../../src/store/sqlite/outbox.js';
import { Webhook } from 'standardwebhooks';
import { SAMPLE_EVENT_DATA } from '../../../src/webhooks/delivery/index.js';
import { USER_AGENT } from '../../../src/webhooks/signing.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { answer } from '../../support/webhook-receiver.js';
import { createTestWebhook, newWebhookSecret } from '../../support/webhooks.js';
import { emit, startDeliveryWorld, until, verifyDelivery, receiver } from './helpers.js';
import { rowsOf } from '../../support/database-rows.js';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { itSqliteOnly } from '../../support/store-kind.js';

describe('webhook delivery: signed POST of the event envelope', () => {
  it('when a status change is written, the subscribed webhook receives one POST of the envelope, signed both ways', async () => {
    const { store, workspace } = await startDeliveryWorld();
    const r = await receiver();
    const hook = await createTestWebhook(store, workspace, { url: r.url, events: ['content.status_updated'] });
    const data = { ...SAMPLE_EVENT_DATA['content.status_updated'], id: crypto.randomUUID(), title: 'Launch post', status: 'PUBLISHED' as const };
    const at = new Date('2026-02-01T10:00:00.000Z');
    const eventId = await store.webhookDeliveries.enqueueEvent({ workspaceId: workspace.workspaceId, type: 'content.status_updated', data, at });

    const [request] = await r.waitForRequests(1);
    const delivery = (await rowsOf<{ id: string }>(store, 'SELECT id FROM webhook_deliveries WHERE event_id = ?', [eventId]))[0]!;
    expect(request).toEqual({
      method: 'POST',
      path: '/hooks',
      headers: expect.objectContaining({
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': delivery.id,
        'x-webhook-delivery': delivery.id,
        'x-webhook-event': 'content.status_updated',
        'webhook-timestamp': expect.stringMatching(/^\d+$/),
        'webhook-signature': expect.stringMatching(/^v1,/),
        'x-webhook-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
      }),
      rawBody: JSON.stringify({ event: 'content.status_updated', timestamp: at.toISOString(), workspace_id: workspace.workspaceId, is_test: false, data }),
      receivedAt: expect.any(Number),
    });
    expect(verifyDelivery(hook.secret, request!)).toEqual({
      event: 'content.status_updated',
      timestamp: '2026-02-01T10:00:00.000Z',
      workspace_id: workspace.workspaceId,
      is_test: false,
      data,
    });
    await until(async () => (await store.webhookDeliveries.getById(delivery.id))?.status === 'delivered', 5_000, 'delivered');
    expect(await store.webhookDeliveries.attempts(delivery.id)).toEqual([
      {
        id: expect.any(Number),
        delivery_id: delivery.id,
        attempt: 1,
        started_at: expect.any(String),
        outcome: 'success',
        http_status: 200,
        response_time_ms: expect.any(Number),
        response_body: 'ok',
        error: null,
      },
    ]);
  });

  it('when several webhooks exist, only the enabled ones of that workspace subscribed to the event get a delivery, each with its own id', async () => {
    const { store, workspace } = await startDeliveryWorld();
    const other = await createTestWorkspace(store);
    const r = await receiver();
    const a = await createTestWebhook(store, workspace, { url: `${r.url}?a`, events: ['topic.status_updated', 'content.status_updated'] });
    const b = await createTestWebhook(store, workspace, { url: `${r.url}?b`, events: ['content.status_updated'] });
    await createTestWebhook(store, workspace, { url: `${r.url}?unsubscribed`, events: ['iq.status_updated'] });
    await createTestWebhook(store, workspace, { url: `${r.url}?disabled`, events: ['content.status_updated'], enabled: false });
    await createTestWebhook(store, other, { url: `${r.url}?other-workspace`, events: ['content.status_updated'] });

    await emit(store, workspace.workspaceId, 'content.status_updated');
    await r.waitForRequests(2);
    await new Promise((done) => setTimeout(done, 150));
    expect(r.requests.map((q) => q.path).sort()).toEqual(['/hooks?a', '/hooks?b']);
    const ids = r.requests.map((q) => q.headers['webhook-id']);
    expect(new Set(ids).size).toBe(2);
    const byPath = Object.fromEntries(r.requests.map((q) => [q.path, q]));
    verifyDelivery(a.secret, byPath['/hooks?a']!);
    verifyDelivery(b.secret, byPath['/hooks?b']!);
    expect(byPath['/hooks?a']!.rawBody).toBe(byPath['/hooks?b']!.rawBody);
  });

  // SQLite only: it drives the SQLite outbox inside a SQLite transaction, as the SQLite import does.
  itSqliteOnly('when the transaction that changed the record rolls back, neither the event nor its deliveries remain', async () => {
    const { store, workspace } = await startDeliveryWorld();
    const r = await receiver();
    await createTestWebhook(store, workspace, { url: r.url });
    // The import writes its events with the SQLite outbox, inside its own transaction.
    const { db } = store as SqliteStore;
    const change = db.transaction(() => {
      enqueueEvent(db, { workspaceId: workspace.workspaceId, type: 'content.status_updated', data: { ...SAMPLE_EVENT_DATA['content.status_updated'], id: crypto.randomUUID(), status: 'PUBLISHED' } });
      throw new Error('the import failed on a later line');
    });
    expect(change).toThrow(/later line/);
    expect(db.prepare('SELECT count(*) FROM webhook_events').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM webhook_deliveries').pluck().get()).toBe(0);
    await new Promise((done) => setTimeout(done, 100));
    expect(r.requests).toEqual([]);
  });

  it('when a delivery is retried, it sends the same bytes under the same webhook-id, signed afresh', async () => {
    const { store, workspace } = await startDeliveryWorld();
    const r = await receiver((_req, i) => (i === 0 ? answer(503, 'busy') : answer(204)));
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId);
    const [first, second] = await r.waitForRequests(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.headers['x-webhook-delivery']).toBe(first!.headers['webhook-id']);
    expect(second!.rawBody).toBe(first!.rawBody);
    verifyDelivery(hook.secret, first!);
    verifyDelivery(hook.secret, second!);
  });

  it('when the secret is being rotated, a real delivery verifies with both the new and the previous secret', async () => {
    const { store, workspace } = await startDeliveryWorld();
    const r = await receiver();
    const previous = newWebhookSecret();
    const hook = await createTestWebhook(store, workspace, {
      url: r.url,
      previousSecret: previous,
      previousSecretExpiresAt: new Date(Date.now() + 86_400_000),
    });
    await emit(store, workspace.workspaceId, 'content.status_updated', { status: 'PUBLISHED' });
    const [request] = await r.waitForRequests(1);
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    verifyDelivery(hook.secret, request!);
    expect(new Webhook(previous).verify(request!.rawBody, headers)).toMatchObject({ workspace_id: workspace.workspaceId });
    expect(() => new Webhook(newWebhookSecret()).verify(request!.rawBody, headers)).toThrow(/No matching signature/);
    expect(() => verifyDelivery(hook.secret, { ...request!, rawBody: request!.rawBody.replace('PUBLISHED', 'DRAFT') })).toThrow();
  });
});
