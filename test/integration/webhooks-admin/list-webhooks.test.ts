import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

type Page = { data: { items: Array<{ id: string; secret_masked: string }>; next_cursor: string | null } };

describe('GET /api/workspace/{workspace_id}/webhooks', () => {
  it('when the workspace has webhooks, answers them oldest first, paged, with masked secrets only', async () => {
    const { call } = await adminWorld(server);
    const created = [];
    for (const name of ['one', 'two', 'three']) created.push(await createWebhook(call, { url: `http://127.0.0.1:9/${name}`, name }));
    const first = await call({ path: '/webhooks', query: { limit: 2 } });
    expect(first.status).toBe(200);
    const page1 = first.body as Page;
    expect(page1.data.items.map((w) => w.id)).toEqual([created[0]!.id, created[1]!.id]);
    expect(page1.data.next_cursor).toEqual(expect.any(String));
    const second = (await call({ path: '/webhooks', query: { limit: 2, cursor: page1.data.next_cursor! } })).body as Page;
    expect(second.data).toEqual({ items: [expect.objectContaining({ id: created[2]!.id })], next_cursor: null });
    for (const hook of created) {
      expect(first.text + JSON.stringify(second)).not.toContain(hook.secret);
    }
    expect(page1.data.items[0]!.secret_masked).toBe(`whsec_…${created[0]!.secret.slice(-4)}`);
  });

  it('when another workspace has webhooks, lists none of them', async () => {
    const mine = await adminWorld(server);
    const theirs = await adminWorld(server);
    await createWebhook(theirs.call, { url: 'http://127.0.0.1:9/theirs' });
    expect((await mine.call({ path: '/webhooks' })).body).toEqual({ code: 2000, messages: 'OK', data: { items: [], next_cursor: null } });
  });

  it('when the cursor was altered or comes from another workspace, answers 422 naming cursor', async () => {
    const a = await adminWorld(server);
    const b = await adminWorld(server);
    for (const world of [a, b]) {
      await createWebhook(world.call, { url: 'http://127.0.0.1:9/1' });
      await createWebhook(world.call, { url: 'http://127.0.0.1:9/2' });
    }
    const cursor = ((await a.call({ path: '/webhooks', query: { limit: 1 } })).body as Page).data.next_cursor!;
    for (const [call, value] of [[a.call, `${cursor}x`], [b.call, cursor]] as const) {
      const response = await call({ path: '/webhooks', query: { cursor: value } });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        code: 4220,
        messages: expect.stringContaining('query.cursor'),
        data: { errors: [{ in: 'query', name: 'cursor', message: expect.any(String) }] },
      });
    }
  });

  it('when limit is out of range, answers 422 naming limit', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ path: '/webhooks', query: { limit: 101 } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: query.limit must be a whole number from 1 to 100 in plain decimal digits.',
      data: { errors: [{ in: 'query', name: 'limit', message: 'must be a whole number from 1 to 100 in plain decimal digits' }] },
    });
  });
});
