import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/test-server.js';
import { answer } from '../../support/webhook-receiver.js';
import { SAMPLE_EVENT_DATA } from '../../../src/webhooks/delivery/samples.js';
import { adminWorld, createWebhook, emit, receiver, startDispatcher, until, WEBHOOK_NOT_FOUND } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

interface Delivery { id: string; event_type: string; delivery_status: string; http_status: number | null; response_body: string | null }
type Page = { data: { items: Delivery[]; next_cursor: string | null } };

describe('GET /api/workspace/{workspace_id}/webhooks/{webhook_id}/deliveries', () => {
  it('when deliveries were attempted, answers each with its payload and latest attempt, newest first', async () => {
    const { workspace, call } = await adminWorld(server);
    const r = await receiver((request) => (request.rawBody.includes('"event":"topic.status_updated"') ? answer(500, 'x'.repeat(3000)) : answer(200, 'thanks')));
    const { id } = await createWebhook(call, { url: r.url, events: ['content.status_updated', 'topic.status_updated'] });
    const dispatcher = startDispatcher(server, { retryScheduleMs: [] });
    await emit(server, workspace.workspaceId, 'content.status_updated');
    await until(() => r.requests.length === 1, 5_000, 'the first delivery');
    await emit(server, workspace.workspaceId, 'topic.status_updated');
    await until(() => r.requests.length === 2, 5_000, 'the second delivery');
    await dispatcher.drain();

    const response = await call({ path: `/webhooks/${id}/deliveries` });
    expect(response.status).toBe(200);
    const [topic, content] = (response.body as Page).data.items;
    expect(response.body).toEqual({
      code: 2000,
      messages: 'OK',
      data: {
        items: [
          {
            id: r.requests[1]!.headers['webhook-id'],
            webhook_id: id,
            event_type: 'topic.status_updated',
            payload: { event: 'topic.status_updated', timestamp: expect.any(String), workspace_id: workspace.workspaceId, is_test: false, data: SAMPLE_EVENT_DATA['topic.status_updated'] },
            http_status: 500,
            response_body: 'x'.repeat(2048),
            response_time_ms: expect.any(Number),
            attempt: 1,
            max_attempts: 1,
            delivery_status: 'failed',
            next_attempt_at: null,
            created_at: expect.any(String),
          },
          {
            id: r.requests[0]!.headers['webhook-id'],
            webhook_id: id,
            event_type: 'content.status_updated',
            payload: { event: 'content.status_updated', timestamp: expect.any(String), workspace_id: workspace.workspaceId, is_test: false, data: SAMPLE_EVENT_DATA['content.status_updated'] },
            http_status: 200,
            response_body: 'thanks',
            response_time_ms: expect.any(Number),
            attempt: 1,
            max_attempts: 1,
            delivery_status: 'delivered',
            next_attempt_at: null,
            created_at: expect.any(String),
          },
        ],
        next_cursor: null,
      },
    });
    expect(JSON.parse(r.requests[0]!.rawBody)).toEqual((content as unknown as { payload: unknown }).payload);
    expect(topic!.id).toBe(r.requests[1]!.headers['x-webhook-delivery']);
  });

  it('when filtered by event type or status and paged, answers only matching deliveries, each once', async () => {
    const { workspace, call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/never', events: ['content.status_updated', 'iq.status_updated'] });
    for (let i = 0; i < 3; i += 1) await emit(server, workspace.workspaceId, 'content.status_updated');
    await emit(server, workspace.workspaceId, 'iq.status_updated');
    const iq = (await call({ path: `/webhooks/${id}/deliveries`, query: { event_type: 'iq.status_updated' } })).body as Page;
    expect(iq.data.items.map((d) => d.event_type)).toEqual(['iq.status_updated']);
    expect(((await call({ path: `/webhooks/${id}/deliveries`, query: { status: 'delivered' } })).body as Page).data.items).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string | number> = { event_type: 'content.status_updated', status: 'pending', limit: 2 };
      if (cursor) query.cursor = cursor;
      const page = (await call({ path: `/webhooks/${id}/deliveries`, query })).body as Page;
      seen.push(...page.data.items.map((d) => d.id));
      cursor = page.data.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
  });

  it('when a cursor is reused with other filters, answers 422 naming cursor', async () => {
    const { workspace, call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/never' });
    for (let i = 0; i < 2; i += 1) await emit(server, workspace.workspaceId);
    const cursor = ((await call({ path: `/webhooks/${id}/deliveries`, query: { limit: 1 } })).body as Page).data.next_cursor!;
    const response = await call({ path: `/webhooks/${id}/deliveries`, query: { limit: 1, cursor, status: 'pending' } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      code: 4220,
      messages: expect.stringContaining('cursor'),
      data: { errors: [{ in: 'query', name: 'cursor', message: expect.any(String) }] },
    });
  });

  it('when a filter value is unknown, answers 422 naming it', async () => {
    const { call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/never' });
    const response = await call({ path: `/webhooks/${id}/deliveries`, query: { status: 'lost' } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      code: 4220,
      messages: expect.stringContaining('query.status must be equal to one of the allowed values'),
      data: { errors: [{ in: 'query', name: 'status', message: expect.stringContaining('must be equal to one of the allowed values') }] },
    });
  });

  it('when the webhook is unknown or another workspace\'s, answers 404', async () => {
    const mine = await adminWorld(server);
    const theirs = await adminWorld(server);
    const foreign = await createWebhook(theirs.call, { url: 'http://127.0.0.1:9/never' });
    for (const id of [randomUUID(), foreign.id]) {
      const response = await mine.call({ path: `/webhooks/${id}/deliveries` });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(WEBHOOK_NOT_FOUND);
    }
  });
});
