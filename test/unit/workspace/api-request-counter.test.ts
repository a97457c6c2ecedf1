import { afterEach, describe, expect, it } from 'vitest';
import { ApiRequestCounter } from '../../../src/workspace/api-request-counter.js';
import { createSqliteTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function setup() {
  const { store, cleanup } = createSqliteTestStore();
  cleanups.push(cleanup);
  return { store, workspaceId: (await createTestWorkspace(store)).workspaceId };
}

const day = (iso: string) => Math.floor(Date.parse(iso) / 86_400_000);

describe('ApiRequestCounter', () => {
  it('when the flush interval passes, writes the pending counts per workspace and UTC day in one batch', async () => {
    const { store, workspaceId } = await setup();
    const counter = new ApiRequestCounter(store, 20);
    cleanups.push(() => counter.stop());
    counter.record(workspaceId, new Date('2026-11-21T23:59:59.999Z'));
    counter.record(workspaceId, new Date('2026-11-22T00:00:00.000Z'));
    counter.record(workspaceId, new Date('2026-11-22T13:00:00.000Z'));
    expect(await store.workspaceProfile.sumApiRequests(workspaceId, 0, 1_000_000)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 80));
    const rows = store.db.prepare('SELECT day, requests FROM api_request_daily WHERE workspace_id = ? ORDER BY day').all(workspaceId);
    expect(rows).toEqual([{ day: day('2026-11-21'), requests: 1 }, { day: day('2026-11-22'), requests: 2 }]);
    expect(counter.pending(workspaceId, 0, 1_000_000)).toBe(0);
  });

  it('when counts for a day already written arrive, adds to them', async () => {
    const { store, workspaceId } = await setup();
    const counter = new ApiRequestCounter(store, 60_000);
    cleanups.push(() => counter.stop());
    counter.record(workspaceId, new Date('2026-11-22T01:00:00.000Z'));
    await counter.flush();
    counter.record(workspaceId, new Date('2026-11-22T02:00:00.000Z'));
    counter.record(workspaceId, new Date('2026-11-22T03:00:00.000Z'));
    expect(counter.pending(workspaceId, day('2026-11-22'), day('2026-11-22'))).toBe(2);
    await counter.flush();
    expect(await store.workspaceProfile.sumApiRequests(workspaceId, day('2026-11-22'), day('2026-11-22'))).toBe(3);
  });

  it('when the connection is inside another transaction, keeps the counts for a later flush', async () => {
    const { store, workspaceId } = await setup();
    const counter = new ApiRequestCounter(store, 60_000);
    cleanups.push(() => counter.stop());
    counter.record(workspaceId, new Date('2026-11-22T01:00:00.000Z'));
    store.db.exec('BEGIN');
    await counter.flush();
    store.db.exec('ROLLBACK');
    expect(counter.pending(workspaceId, 0, 1_000_000)).toBe(1);
    await counter.flush();
    expect(await store.workspaceProfile.sumApiRequests(workspaceId, 0, 1_000_000)).toBe(1);
  });

  it('when the database is closed, stops without throwing', async () => {
    const { store, workspaceId } = await setup();
    const counter = new ApiRequestCounter(store, 60_000);
    counter.record(workspaceId, new Date());
    store.db.close();
    await expect(counter.flush()).resolves.toBe(false);
  });
});
