import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { generateDemoData } from '../../../src/demo/generate-demo-data.js';
import { bootstrapDemo } from '../../../src/demo/bootstrap.js';
import { loadDemoData } from '../../../src/demo/load-demo-data.js';
import { importLines } from '../../../src/import/import-ndjson.js';
import type { Store } from '../../../src/store/index.js';
import { createTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { rowsOf, valueOf, valuesOf } from '../../support/database-rows.js';
import { itSqliteOnly } from '../../support/store-kind.js';

let store: Store;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ store, cleanup } = await createTestStore());
});
afterEach(() => cleanup());

const today = new Date('2026-11-22T15:00:00Z');
const todayDay = Math.floor(today.getTime() / 86_400_000);
const small = { seed: 7, prompts: 40, days: 30, answersPerDay: 1, today };

describe('demo data', () => {
  it('when generated twice with the same seed and day, is identical; another seed gives other data', () => {
    const a = [...generateDemoData(small)];
    expect([...generateDemoData(small)]).toEqual(a);
    expect([...generateDemoData({ ...small, seed: 8 })]).not.toEqual(a);
    expect(a.length).toBeGreaterThan(1000);
  });

  it('when imported, holds a brand, eight competitors, prompts of every status in categories and six platforms, ending today', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const summary = await importLines(store, workspaceId, generateDemoData({ ...small, idNamespace: workspaceId }));
    expect(summary.inserted).toBe(summary.records);

    const one = (sql: string) => valueOf(store, sql, [workspaceId]);
    expect(await one('SELECT count(*) FROM competitors WHERE workspace_id = ?')).toBe(8);
    expect(await one('SELECT count(*) FROM categories WHERE workspace_id = ?')).toBe(5);
    expect(await valuesOf(store, 'SELECT DISTINCT status FROM prompts WHERE workspace_id = ? ORDER BY status', [workspaceId])).toEqual(['ACTIVE', 'GENERATING', 'PENDING']);
    expect(await one('SELECT count(*) FROM prompts WHERE workspace_id = ? AND category_id IS NULL')).toBeGreaterThan(0);
    expect(await one("SELECT count(*) FROM prompts WHERE workspace_id = ? AND status = 'PENDING' AND last_collected_ms IS NOT NULL")).toBe(0);
    expect(await one('SELECT max(day) FROM workspace_daily WHERE workspace_id = ?')).toBe(todayDay);
    expect(await one('SELECT min(day) FROM workspace_daily WHERE workspace_id = ?')).toBe(todayDay - 29);

    // Platforms differ: each has its own mention level, and the spread is wide.
    const rates = await rowsOf<{ platform: string; rate: number }>(store,
      'SELECT platform, 1.0 * sum(mentioned) / sum(total) AS rate FROM workspace_daily WHERE workspace_id = ? GROUP BY platform', [workspaceId]);
    expect(rates.map((r) => r.platform).sort()).toEqual(['chatgpt', 'claude', 'gemini', 'google_ai_overview', 'grok', 'perplexity']);
    expect(Math.max(...rates.map((r) => r.rate)) - Math.min(...rates.map((r) => r.rate))).toBeGreaterThan(0.1);

    // Some active prompts never run on some platform; some days have no collection at all.
    const platformsPerPrompt = await valuesOf<number>(store,
      "SELECT count(DISTINCT platform) FROM prompt_platform_running d JOIN prompts p ON p.id = d.prompt_id WHERE p.workspace_id = ? AND p.status = 'ACTIVE' GROUP BY p.id", [workspaceId]);
    expect(Math.min(...platformsPerPrompt)).toBeLessThan(6);
    expect(await one('SELECT count(DISTINCT day) FROM workspace_daily WHERE workspace_id = ?')).toBeLessThan(30);
    // The brand's own pages are among the cited ones.
    expect(await one("SELECT count(*) FROM snapshots WHERE workspace_id = ? AND cited = 1 AND citations LIKE '%https://acme-analytics.example/%'")).toBeGreaterThan(0);
  });

  it('when loaded into two workspaces, the ids do not collide', async () => {
    const first = await createTestWorkspace(store);
    const second = await createTestWorkspace(store);
    const tiny = { ...small, prompts: 5, days: 3 };
    await importLines(store, first.workspaceId, generateDemoData({ ...tiny, idNamespace: first.workspaceId }));
    await expect(importLines(store, second.workspaceId, generateDemoData({ ...tiny, idNamespace: second.workspaceId }))).resolves.toMatchObject({ updated: 0, unchanged: 0 });
  });

  // The demo at its full size, once: bootstrapDemo asks nothing of the store that the other tests
  // do not, and the import's rules are compared between the stores by import-parity.test.ts.
  itSqliteOnly('when the demo starts on an empty database, the demo workspace is filled with recent visibility data', async () => {
    // The demo starts only on a database without workspaces: this test takes one of its own.
    const { store, cleanup } = await createTestStore({ ownDatabase: true });
    onTestFinished(cleanup);
    const account = await bootstrapDemo(store, loadDemoData);
    expect(account).toBeDefined();
    const now = Math.floor(Date.now() / 86_400_000);
    expect(await valueOf(store, 'SELECT count(*) FROM prompts WHERE workspace_id = ?', [account!.workspace_id])).toBe(40);
    expect(await valueOf<number>(store, 'SELECT max(day) FROM workspace_daily WHERE workspace_id = ?', [account!.workspace_id])).toBeGreaterThanOrEqual(now - 1);
  }, 120_000);
});
