import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresWorkspaceProfileStore } from '../../src/store/postgres/workspace-profile.js';
import type { WorkspacePlanRow, WorkspaceProfileStore } from '../../src/store/interfaces/workspace-profile.js';
import { createWorkspaceProfileStore } from '../../src/store/sqlite/workspace-profile.js';
import { postgresAvailable } from '../support/postgres.js';
import { openTwinDatabases, storeTwins, type TwinDatabases } from '../support/store-pair.js';

describe.skipIf(!postgresAvailable())('workspace profile, plan and request counts on PostgreSQL answer every call as on SQLite', () => {
  let twins: TwinDatabases;
  let same: ReturnType<typeof storeTwins<WorkspaceProfileStore>>['same'];
  let refused: ReturnType<typeof storeTwins<WorkspaceProfileStore>>['refused'];

  beforeAll(async () => {
    twins = await openTwinDatabases();
    ({ same, refused } = storeTwins(createWorkspaceProfileStore(twins.sqlite), createPostgresWorkspaceProfileStore(twins.postgres)));
  });
  afterAll(async () => {
    await twins?.close();
  });

  it('the profile: none, then upserted and read back with its lists, then replaced whole', async () => {
    const { workspaceId } = await twins.addWorkspaceWithOwner();
    expect(await same('getProfile', workspaceId)).toBeUndefined();
    const profile = {
      id: randomUUID(),
      workspace_id: workspaceId,
      brand_name: 'Acme',
      domains: ['acme.example', 'acme-cdn.example'],
      tracked_platforms: ['chatgpt', 'perplexity'] as const,
      collection_cadence: 'daily' as const,
    };
    await same('upsertProfile', { ...profile, tracked_platforms: [...profile.tracked_platforms] });
    expect(await same('getProfile', workspaceId)).toEqual({ ...profile, tracked_platforms: ['chatgpt', 'perplexity'] });
    const replaced = { ...profile, id: randomUUID(), brand_name: 'Acme Inc.', domains: [], tracked_platforms: ['claude' as const], collection_cadence: 'weekly' as const };
    await same('upsertProfile', replaced);
    expect(await same('getProfile', workspaceId)).toEqual(replaced);
    expect(await refused('upsertProfile', { ...replaced, collection_cadence: 'monthly' as 'daily' })).toBe('check');
  });

  it('the plan: none, then upserted with and without limits; a period that ends before it starts is refused alike', async () => {
    const { workspaceId } = await twins.addWorkspaceWithOwner();
    expect(await same('getPlan', workspaceId)).toBeUndefined();
    const plan: WorkspacePlanRow = {
      id: randomUUID(),
      workspace_id: workspaceId,
      name: 'Growth',
      tracked_prompts_limit: 250,
      articles_per_month_limit: null,
      period_start: '2026-11-01',
      period_end: '2026-11-30',
    };
    await same('upsertPlan', plan);
    expect(await same('getPlan', workspaceId)).toEqual(plan);
    await same('upsertPlan', { ...plan, name: 'Scale', tracked_prompts_limit: null, articles_per_month_limit: 40 });
    expect(await same('getPlan', workspaceId)).toEqual({ ...plan, name: 'Scale', tracked_prompts_limit: null, articles_per_month_limit: 40 });
    expect(await refused('upsertPlan', { ...plan, period_end: '2026-10-31' })).toBe('check');
  });

  it('request counts: batches add up per workspace and day, the same pair twice in a batch included', async () => {
    const [{ workspaceId: a }, { workspaceId: b }] = [await twins.addWorkspaceWithOwner(), await twins.addWorkspaceWithOwner()];
    await same('addApiRequests', []);
    await same('addApiRequests', [[a, 20_400, 3], [b, 20_400, 5], [a, 20_401, 2], [a, 20_400, 4]]);
    await same('addApiRequests', [[a, 20_400, 1]]);
    expect(await same('sumApiRequests', a, 20_400, 20_400)).toBe(8);
    expect(await same('sumApiRequests', a, 20_400, 20_401)).toBe(10);
    expect(await same('sumApiRequests', b, 20_399, 20_402)).toBe(5);
    expect(await same('sumApiRequests', a, 20_402, 20_500)).toBe(0);
  });

  it('counts prompts and the articles written in a half-open period', async () => {
    const { workspaceId } = await twins.addWorkspaceWithOwner();
    expect(await same('countPrompts', workspaceId)).toBe(0);
    for (const n of [1, 2]) {
      await twins.insertBoth(
        "INSERT INTO prompts (id, workspace_id, text, status, created_at, updated_at) VALUES (@id, @workspaceId, @text, 'ACTIVE', @at, @at)",
        { id: randomUUID(), workspaceId, text: `prompt ${n}`, at: '2026-11-01T00:00:00.000Z' },
      );
    }
    expect(await same('countPrompts', workspaceId)).toBe(2);
    for (const writtenOn of ['2026-10-31T23:59:59.999Z', '2026-11-01T00:00:00.000Z', '2026-11-30T23:59:59.999Z', '2026-12-01T00:00:00.000Z', null]) {
      await twins.insertBoth(
        `INSERT INTO articles (id, workspace_id, title, status, topic, keywords, source, autowrite, written_on, created_at, updated_at)
         VALUES (@id, @workspaceId, 'An article', 'GENERATED', 'Pricing', '[]', 'manual', 0, @writtenOn, @at, @at)`,
        { id: randomUUID(), workspaceId, writtenOn, at: '2026-10-01T00:00:00.000Z' },
      );
    }
    expect(await same('countArticlesWritten', workspaceId, '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z')).toBe(2);
  });
});
