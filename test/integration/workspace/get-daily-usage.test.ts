import { describe, expect, it } from 'vitest';
import { importLines } from '../../../src/import/import-ndjson.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { planLine } from '../../support/workspace-records.js';
import { adminWorld } from '../webhooks-admin/helpers.js';

const server = useTestServer();

const DAY_MS = 86_400_000;
const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

describe('GET /api/workspace/{workspace_id}/usage/daily', () => {
  it('answers every UTC day of the range, oldest first, zeros included, the written and the pending counts summed, and the rate limit left', async () => {
    const world = await adminWorld(server);
    const today = Math.floor(Date.now() / DAY_MS);
    await server.store.workspaceProfile.addApiRequests([[world.workspace.workspaceId, today - 2, 7], [world.workspace.workspaceId, today - 9, 100]]);
    for (let i = 0; i < 3; i += 1) expect((await send(server.url, { path: '/api/v1/me', key: world.workspace.key })).status).toBe(200);
    // Another workspace's requests are its own.
    const other = await adminWorld(server);
    expect((await send(server.url, { path: '/api/v1/me', key: other.workspace.key })).status).toBe(200);

    const read = async () => world.call({ path: '/usage/daily', query: { days: 5 } });
    const pending = await read();
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({
      code: 2000,
      messages: 'OK',
      data: {
        items: [4, 3, 2, 1, 0].map((back) => ({ date: dateOf(today - back), requests: back === 2 ? 7 : back === 0 ? 3 : 0 })),
        // Three reads and this administration request spent the shared limit.
        rate_limit: { limit: 120, window_seconds: 60, remaining: 116, reset_seconds: expect.any(Number) },
        // No plan imported for this workspace.
        plan: null,
      },
    });
    await server.writers.requestCounts.finish();
    expect(((await read()).body as { data: { items: unknown[] } }).data.items).toEqual((pending.body as { data: { items: unknown[] } }).data.items);
    const month = (await world.call({ path: '/usage/daily' })).body as { data: { items: Array<{ date: string; requests: number }> } };
    expect(month.data.items).toHaveLength(30);
    expect(month.data.items.reduce((sum, d) => sum + d.requests, 0)).toBe(110);
  });

  it('names the plan the requests count against, as GET /api/v1/workspace/plan answers it', async () => {
    const world = await adminWorld(server);
    await importLines(server.store, world.workspace.workspaceId, [planLine({ name: 'Growth', tracked_prompts_limit: 100, articles_per_month_limit: null }).line]);
    const [daily, plan] = await Promise.all([
      world.call({ path: '/usage/daily', query: { days: 1 } }),
      send(server.url, { path: '/api/v1/workspace/plan', key: world.workspace.key }),
    ]);
    expect(plan.status).toBe(200);
    expect((plan.body as { data: { name: string } }).data.name).toBe('Growth');
    expect((daily.body as { data: { plan: unknown } }).data.plan).toEqual((plan.body as { data: unknown }).data);
  });

  it('when days is outside 1..90, answers 422 naming it', async () => {
    const { call } = await adminWorld(server);
    for (const days of ['0', '91', '1e1']) {
      const response = await call({ path: '/usage/daily', query: { days } });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 4220, data: { errors: [{ in: 'query', name: 'days' }] } });
    }
  });
});
