import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importLines } from '../../../src/import/import-ndjson.js';
import { ImportError } from '../../../src/import-engine/import-error.js';
import type { Store } from '../../../src/store/index.js';
import { createTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { storeContents } from '../../support/database-rows.js';
import { planLine, profileLine } from '../../support/workspace-records.js';

let store: Store;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ store, cleanup } = await createTestStore());
});
afterEach(() => cleanup());

async function expectRejected(workspaceId: string, lines: string[], message: string): Promise<void> {
  const before = await storeContents(store);
  const error = await importLines(store, workspaceId, lines).then(() => undefined, (err: unknown) => err);
  expect(error).toBeInstanceOf(ImportError);
  expect((error as ImportError).message).toBe(message);
  expect(await storeContents(store)).toEqual(before);
}

describe('import: workspace_profile', () => {
  it('when imported, stores the domains lower-case without www. and once each, and the platforms in canonical order', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const id = randomUUID();
    const summary = await importLines(store, workspaceId, [profileLine({
      id,
      brand_name: 'Acme',
      domains: ['WWW.Acme.Example', 'acme.example', 'Docs.Acme.Example'],
      tracked_platforms: ['claude', 'chatgpt', 'perplexity'],
      collection_cadence: 'weekly',
    }).line]);
    expect(summary).toMatchObject({ records: 1, inserted: 1, updated: 0, unchanged: 0 });
    expect(await store.workspaceProfile.getProfile(workspaceId)).toEqual({
      id,
      workspace_id: workspaceId,
      brand_name: 'Acme',
      domains: ['acme.example', 'docs.acme.example'],
      tracked_platforms: ['chatgpt', 'perplexity', 'claude'],
      collection_cadence: 'weekly',
    });
  });

  it('when the same record is imported again, reports it unchanged; when it differs, updated', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const line = profileLine().line;
    await importLines(store, workspaceId, [line]);
    expect(await importLines(store, workspaceId, [line])).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
    const changed = JSON.stringify({ ...JSON.parse(line), brand_name: 'Acme Inc' });
    expect(await importLines(store, workspaceId, [changed])).toMatchObject({ inserted: 0, updated: 1, unchanged: 0 });
    expect((await store.workspaceProfile.getProfile(workspaceId))?.brand_name).toBe('Acme Inc');
  });

  it('when a profile with another id is imported, it replaces the previous one', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    await importLines(store, workspaceId, [profileLine({ brand_name: 'Old' }).line]);
    const id = randomUUID();
    expect(await importLines(store, workspaceId, [profileLine({ id, brand_name: 'New' }).line])).toMatchObject({ updated: 1 });
    expect(await store.workspaceProfile.getProfile(workspaceId)).toMatchObject({ id, brand_name: 'New' });
  });

  it('when a platform is not a platform, fails naming the field and writes nothing', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    await expectRejected(workspaceId, [planLine().line, profileLine({ tracked_platforms: ['chatgpt', 'bing'] }).line],
      'line 2: tracked_platforms[1]: "bing" is not one of chatgpt, google_ai_overview, perplexity, gemini, grok, claude');
  });

  it('when a domain is not a host name, fails naming the field', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const error = await importLines(store, workspaceId, [profileLine({ domains: ['https://acme.example/'] }).line]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).field).toBe('domains[0]');
  });

  it('when the cadence is unknown, fails naming the field', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const error = await importLines(store, workspaceId, [profileLine({ collection_cadence: 'monthly' }).line]).catch((e: unknown) => e);
    expect((error as ImportError).field).toBe('collection_cadence');
  });
});

describe('import: workspace_plan', () => {
  it('when imported, stores the name, the limits and the period', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const id = randomUUID();
    await importLines(store, workspaceId, [planLine({ id, name: 'Scale', tracked_prompts_limit: 500, articles_per_month_limit: null }).line]);
    expect(await store.workspaceProfile.getPlan(workspaceId)).toEqual({
      id,
      workspace_id: workspaceId,
      name: 'Scale',
      tracked_prompts_limit: 500,
      articles_per_month_limit: null,
      period_start: '2026-11-01',
      period_end: '2026-11-30',
    });
  });

  it('when the same plan is imported again, reports it unchanged', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const line = planLine().line;
    await importLines(store, workspaceId, [line]);
    expect(await importLines(store, workspaceId, [line])).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
  });

  it('when the period ends before it starts, fails naming period_end and writes nothing', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    await expectRejected(workspaceId, [profileLine().line, planLine({ period_start: '2026-11-02', period_end: '2026-11-01' }).line],
      'line 2: period_end: must not be before period_start (2026-11-02)');
  });

  it('when a date is not a calendar date, fails naming the field', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const error = await importLines(store, workspaceId, [planLine({ period_end: '2026-02-30' }).line]).catch((e: unknown) => e);
    expect((error as ImportError).field).toBe('period_end');
  });

  it('when a limit is negative, fails naming the field', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const error = await importLines(store, workspaceId, [planLine({ tracked_prompts_limit: -1 }).line]).catch((e: unknown) => e);
    expect((error as ImportError).field).toBe('tracked_prompts_limit');
  });
});
