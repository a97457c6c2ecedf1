import { expect } from 'vitest';
import { importLines } from '../../../src/import/import-ndjson.js';
import { calendarMonthOf } from '../../../src/workspace/billing-period.js';
import { planLine } from '../../support/workspace-records.js';
import type { OperationScenario } from './types.js';

export const workspaceScenarios: OperationScenario[] = [
  {
    operationId: 'getWorkspacePlan',
    statuses: {
      200: async (ctx) => {
        await importLines(ctx.store, ctx.workspace.workspaceId, [planLine({ name: 'Growth', tracked_prompts_limit: 50, articles_per_month_limit: null }).line]);
        return { path: '/api/v1/workspace/plan' };
      },
      404: () => ({ path: '/api/v1/workspace/plan' }),
    },
    expect: {
      200: (res) => {
        expect(res.body).toEqual({
          code: 2000,
          messages: 'OK',
          data: {
            name: 'Growth',
            status: 'active',
            limits: { tracked_prompts: 50, articles_per_month: null },
            current_period: { start: '2026-11-01', end: '2026-11-30' },
          },
        });
      },
      404: (res) => {
        expect(res.body).toEqual({ code: 4040, messages: 'No plan is on record for this workspace.', data: null });
      },
    },
  },
  {
    operationId: 'getWorkspaceUsage',
    statuses: {
      200: () => ({ path: '/api/v1/workspace/usage' }),
    },
    expect: {
      200: (res, ctx) => {
        expect(res.body).toEqual({
          code: 2000,
          messages: 'OK',
          data: {
            period: calendarMonthOf(ctx.now),
            prompts_tracked: { used: 0, limit: null, remaining: null },
            articles_generated: { used: 0, limit: null, remaining: null },
            api_requests_served: expect.any(Number),
          },
        });
        expect((res.body as { data: { api_requests_served: number } }).data.api_requests_served).toBeGreaterThanOrEqual(1);
      },
    },
  },
];
