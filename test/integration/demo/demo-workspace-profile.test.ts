import { beforeAll, describe, expect, it } from 'vitest';
import { generateDemoData } from '../../../src/demo/generate-demo-data.js';
import { importLines } from '../../../src/import/import-ndjson.js';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith } from '../../support/visibility.js';

const today = new Date('2026-11-22T15:00:00Z');

const server = useTestServer({ now: () => today });
let ws: TestWorkspace;
beforeAll(async () => {
  ws = await createTestWorkspace(server.store);
  await importLines(server.store, ws.workspaceId, generateDemoData({ seed: 7, prompts: 40, days: 30, answersPerDay: 1, today, idNamespace: ws.workspaceId }));
});

const data = async (path: string, query: Record<string, string | number> = {}) => ((await getWith(server, ws, path, query)).body as { data: any }).data;

describe('demo data: workspace profile, plan and the visibility overview', () => {
  it('when imported, gives the workspace its brand, a plan for the current month and usage against it', async () => {
    expect(await data('/api/v1/workspace')).toMatchObject({ brand_name: 'Acme Analytics', domains: ['acme-analytics.example'] });
    expect(await data('/api/v1/workspace/plan')).toEqual({
      name: 'Growth', status: 'active', limits: { tracked_prompts: 50, articles_per_month: 30 },
      current_period: { start: '2026-11-01', end: '2026-11-30' },
    });
    const usage = await data('/api/v1/workspace/usage');
    expect(usage.prompts_tracked).toEqual({ used: 40, limit: 50, remaining: 10 });
    expect(usage.articles_generated.used).toBeGreaterThan(0);
  });

  it('when imported, fills the setup, the rates, share of voice and the cited pages, own pages linked to the content map', async () => {
    const setup = await data('/api/v1/visibility/setup');
    expect(setup).toMatchObject({ brand_name: 'Acme Analytics', competitor_count: 8, collection_cadence: 'daily' });
    expect(setup.tracked_platforms).toHaveLength(6);
    expect((await data('/api/v1/visibility/rates', { range: '7d' })).total_snapshots).toBeGreaterThan(0);
    const competitors = (await data('/api/v1/visibility/competitors')).competitors as Array<{ is_brand: boolean; mentions: number }>;
    expect(competitors).toHaveLength(9);
    expect(competitors.filter((c) => c.is_brand)).toHaveLength(1);
    const pages = (await data('/api/v1/visibility/cited-pages', { range: '30d', limit: 100 })).items as Array<{ is_own: boolean; content_map_page_id: string | null }>;
    expect(pages.some((p) => !p.is_own)).toBe(true);
    expect(pages.some((p) => p.is_own && p.content_map_page_id !== null)).toBe(true);
  });
});
