import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, parseDurationList } from '../../../src/config.js';
import { useTestServer } from '../../support/test-server.js';
import { answer } from '../../support/webhook-receiver.js';
import { adminWorld, createWebhook, emit, receiver, startDispatcher, until, WEBHOOK_NOT_FOUND } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

// The default schedule a hundred times faster: 100 ms, 600 ms, 3 s, … for 10 s, 1 min, 5 min, …
const SCALE = 100;
const scaledDefault = parseDurationList(DEFAULT_RETRY_SCHEDULE, 'default').map((ms) => ms / SCALE);

interface Attempt { attempt: number; started_at: string; outcome: string; http_status: number | null; response_time_ms: number; response_body: string | null; error: string | null }
interface DeliveryDetail { delivery_status: string; attempt: number; next_attempt_at: string | null; attempts: Attempt[]; payload: { timestamp: string } }

describe('GET /api/workspace/{workspace_id}/webhooks/{webhook_id}/deliveries/{delivery_id}', () => {
  it('when the receiver fails twice then succeeds, shows the three attempts with their statuses and times; the retries came after the first two steps of the schedule', async () => {
    const { workspace, call } = await adminWorld(server);
    const r = await receiver((_q, i) => (i < 2 ? answer(503, `busy ${i + 1}`) : answer(200, 'thanks')));
    const { id: webhookId } = await createWebhook(call, { url: r.url, events: ['topic.status_updated'] });
    startDispatcher(server, { retryScheduleMs: scaledDefault });
    await emit(server, workspace.workspaceId, 'topic.status_updated');

    const requests = await r.waitForRequests(3);
    const deliveryId = requests[0]!.headers['webhook-id'] as string;
    await until(async () => (await server.store.webhookDeliveries.getById(deliveryId))?.status === 'delivered', 5_000, 'delivered');

    // Every attempt sent the same bytes: the envelope's timestamp is the event's, not the attempt's.
    expect(new Set(requests.map((q) => q.rawBody)).size).toBe(1);
    expect(new Set(requests.map((q) => q.headers['webhook-id'])).size).toBe(1);
    // About 10 s and 60 s at full scale: each wait is its step within ±20% jitter, plus the poll
    // and the machine's delays. Each is shorter than the least the step after it could wait (the
    // first under 480 ms, the second under 2.4 s), so no step was skipped.
    const firstWait = requests[1]!.receivedAt - requests[0]!.receivedAt;
    const secondWait = requests[2]!.receivedAt - requests[1]!.receivedAt;
    expect(scaledDefault.slice(0, 3)).toEqual([100, 600, 3_000]);
    expect(firstWait).toBeGreaterThanOrEqual(80 - 5);
    expect(firstWait).toBeLessThan(480);
    expect(secondWait).toBeGreaterThanOrEqual(480 - 5);
    expect(secondWait).toBeLessThan(2_400);

    const response = await call({ path: `/webhooks/${webhookId}/deliveries/${deliveryId}` });
    expect(response.status).toBe(200);
    const detail = (response.body as { data: DeliveryDetail }).data;
    expect(response.body).toMatchObject({
      code: 2000,
      messages: 'OK',
      data: {
        id: deliveryId,
        webhook_id: webhookId,
        event_type: 'topic.status_updated',
        payload: JSON.parse(requests[0]!.rawBody) as object,
        http_status: 200,
        response_body: 'thanks',
        attempt: 3,
        max_attempts: scaledDefault.length + 1,
        delivery_status: 'delivered',
        next_attempt_at: null,
      },
    });
    expect(detail.attempts).toEqual([
      { attempt: 1, started_at: expect.any(String), outcome: 'failure', http_status: 503, response_time_ms: expect.any(Number), response_body: 'busy 1', error: 'answered 503' },
      { attempt: 2, started_at: expect.any(String), outcome: 'failure', http_status: 503, response_time_ms: expect.any(Number), response_body: 'busy 2', error: 'answered 503' },
      { attempt: 3, started_at: expect.any(String), outcome: 'success', http_status: 200, response_time_ms: expect.any(Number), response_body: 'thanks', error: null },
    ]);
    // The recorded start times are the attempts' own: each is its webhook-timestamp, and each
    // falls between the previous attempt's arrival and its own.
    const started = detail.attempts.map((a) => Date.parse(a.started_at));
    expect(requests.map((q) => Number(q.headers['webhook-timestamp']))).toEqual(started.map((ms) => Math.floor(ms / 1000)));
    for (const [i, request] of requests.entries()) {
      expect(started[i]!).toBeLessThanOrEqual(request.receivedAt);
      if (i > 0) expect(started[i]!).toBeGreaterThanOrEqual(requests[i - 1]!.receivedAt);
    }
    expect(Date.parse(detail.payload.timestamp)).toBeLessThanOrEqual(started[0]!);
  });

  it('while a delivery waits for its retry, shows the failed attempt and when the next one is due, in the list too', async () => {
    const { workspace, call } = await adminWorld(server);
    const r = await receiver(() => answer(500, 'down'));
    const { id: webhookId } = await createWebhook(call, { url: r.url, events: ['content.status_updated'] });
    const dispatcher = startDispatcher(server, { retryScheduleMs: [60_000] });
    await emit(server, workspace.workspaceId, 'content.status_updated');
    const [request] = await r.waitForRequests(1);
    const deliveryId = request!.headers['webhook-id'] as string;
    await until(async () => (await server.store.webhookDeliveries.attempts(deliveryId)).length === 1, 5_000, 'the first attempt recorded');
    await dispatcher.drain();

    const detail = (await call({ path: `/webhooks/${webhookId}/deliveries/${deliveryId}` })).body as { data: DeliveryDetail };
    expect(detail.data).toMatchObject({ delivery_status: 'pending', attempt: 1, attempts: [{ attempt: 1, outcome: 'failure', http_status: 500, error: 'answered 500' }] });
    const wait = Date.parse(detail.data.next_attempt_at!) - Date.parse(detail.data.attempts[0]!.started_at);
    expect(wait).toBeGreaterThanOrEqual(48_000);
    expect(wait).toBeLessThanOrEqual(72_000 + 2_000);

    const list = (await call({ path: `/webhooks/${webhookId}/deliveries` })).body as { data: { items: Array<{ id: string; next_attempt_at: string | null }> } };
    expect(list.data.items).toEqual([expect.objectContaining({ id: deliveryId, next_attempt_at: detail.data.next_attempt_at })]);
  });

  it('when the delivery is unknown, or belongs to another webhook, answers 404', async () => {
    const { workspace, call } = await adminWorld(server);
    const r = await receiver();
    const first = await createWebhook(call, { url: r.url });
    const second = await createWebhook(call, { url: r.url });
    const dispatcher = startDispatcher(server);
    await emit(server, workspace.workspaceId, 'content.status_updated');
    const [request] = await r.waitForRequests(2);
    await dispatcher.drain();
    const deliveryOfSomeone = request!.headers['webhook-id'] as string;
    const owner = (await server.store.webhookDeliveries.getById(deliveryOfSomeone))!.webhook_id;
    const other = owner === first.id ? second.id : first.id;

    const notFound = { code: 4040, messages: 'Delivery not found.', data: null };
    expect((await call({ path: `/webhooks/${first.id}/deliveries/${randomUUID()}` })).body).toEqual(notFound);
    expect((await call({ path: `/webhooks/${other}/deliveries/${deliveryOfSomeone}` })).body).toEqual(notFound);
    expect((await call({ path: `/webhooks/${randomUUID()}/deliveries/${deliveryOfSomeone}` })).body).toEqual(WEBHOOK_NOT_FOUND);
  });
});
