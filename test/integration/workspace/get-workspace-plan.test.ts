import { describe, expect, it } from 'vitest';
import { importLines } from '../../../src/import/import-ndjson.js';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { planLine } from '../../support/workspace-records.js';

const server = useTestServer();

const plan = (key: string) => send(server.url, { path: '/api/v1/workspace/plan' }, key);

describe('GET /api/v1/workspace/plan', () => {
  it('when a plan is on record, answers 200 with its name, the subscription status, its limits and its period', async () => {
    const ws = await createTestWorkspace(server.store);
    await importLines(server.store, ws.workspaceId, [planLine({ name: 'Growth', tracked_prompts_limit: 100, articles_per_month_limit: 30 }).line]);
    const res = await plan(ws.key);
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        name: 'Growth',
        status: 'active',
        limits: { tracked_prompts: 100, articles_per_month: 30 },
        current_period: { start: '2026-11-01', end: '2026-11-30' },
      },
    }]);
  });

  it('when the limits are null, answers them as null (unlimited)', async () => {
    const ws = await createTestWorkspace(server.store);
    await importLines(server.store, ws.workspaceId, [planLine({ name: 'Enterprise', tracked_prompts_limit: null, articles_per_month_limit: null }).line]);
    const res = await plan(ws.key);
    expect((res.body as { data: unknown }).data).toEqual({
      name: 'Enterprise',
      status: 'active',
      limits: { tracked_prompts: null, articles_per_month: null },
      current_period: { start: '2026-11-01', end: '2026-11-30' },
    });
  });

  it('when a later plan record is imported, answers the later one', async () => {
    const ws = await createTestWorkspace(server.store);
    await importLines(server.store, ws.workspaceId, [planLine({ name: 'Starter' }).line]);
    await importLines(server.store, ws.workspaceId, [planLine({ name: 'Scale', period_start: '2026-12-01', period_end: '2026-12-31' }).line]);
    const res = await plan(ws.key);
    expect((res.body as { data: unknown }).data).toEqual({
      name: 'Scale',
      status: 'active',
      limits: { tracked_prompts: 100, articles_per_month: 30 },
      current_period: { start: '2026-12-01', end: '2026-12-31' },
    });
  });

  it('when the subscription is past due or canceled, answers 200 with that status', async () => {
    for (const status of ['past_due', 'canceled'] as const) {
      const ws = await createTestWorkspace(server.store, { subscription: status });
      await importLines(server.store, ws.workspaceId, [planLine().line]);
      const res = await plan(ws.key);
      expect([res.status, (res.body as { data: { status: string } }).data.status]).toEqual([200, status]);
    }
  });

  it('when no plan is on record, answers 404 (4040)', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await plan(ws.key);
    expect([res.status, res.body]).toEqual([404, { code: 4040, messages: 'No plan is on record for this workspace.', data: null }]);
  });

  it('when another workspace has a plan, does not answer it', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    await importLines(server.store, other.workspaceId, [planLine().line]);
    expect((await plan(ws.key)).status).toBe(404);
  });

  it('when the key lacks workspace:read, answers 403 (4023)', async () => {
    const ws = await createTestWorkspace(server.store);
    const key = await createTestKey(server.store, ws, { scopes: ['visibility:read'] });
    const res = await plan(key.key);
    expect([res.status, res.body]).toEqual([403, {
      code: 4023,
      messages: 'The API key lacks the scope required for this request: workspace:read.',
      data: { required: ['workspace:read'], missing: ['workspace:read'] },
    }]);
  });
});
