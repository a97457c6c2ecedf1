import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CreatedPosition } from '../../src/store/interfaces/list-pages.js';
import type { WebhookRow, WebhookStore } from '../../src/store/interfaces/webhooks.js';
import { createPostgresWebhookStore } from '../../src/store/postgres/webhooks.js';
import { createTestWorkspace, type TestWorkspace } from '../support/accounts.js';
import { copySqliteToPostgres } from '../support/copy-sqlite-to-postgres.js';
import { postgresAvailable } from '../support/postgres.js';
import { expectSameTable, sameAnswer, storePairForThisTest, type StorePair } from '../support/store-pair.js';
import { everyPage } from '../support/keyset-pages.js';

const T0 = '2026-04-01T08:00:00.000Z';
const T1 = '2026-04-01T09:00:00.000Z';
const LATER = '2026-04-02T10:00:00.000Z';

function webhookRow(workspace: TestWorkspace, fields: Partial<WebhookRow> = {}): WebhookRow {
  return {
    id: randomUUID(),
    workspace_id: workspace.workspaceId,
    url: 'https://hooks.example.test/receive',
    name: 'Orders',
    description: 'Order events',
    events: JSON.stringify(['content.status_updated']),
    secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=',
    previous_secret: null,
    previous_secret_expires_at: null,
    enabled: 1,
    consecutive_failures: 0,
    disabled_at: null,
    created_by: workspace.ownerId,
    created_at: T0,
    updated_at: T0,
    ...fields,
  };
}

/**
 * Webhooks that test the list's order: ties on created_at broken by id in code-point order
 * (upper case before lower case before accented letters), NULLs in every nullable column, Unicode
 * text, a disabled webhook with a large failure count, a webhook in a second workspace.
 */
function variedWebhooks(a: TestWorkspace, b: TestWorkspace): WebhookRow[] {
  return [
    webhookRow(a, { id: 'B-hook', created_at: T0 }),
    webhookRow(a, { id: 'a-hook', created_at: T0, name: 'Ünïcode 名前 🚀', description: null }),
    webhookRow(a, { id: 'É-hook', created_at: T0, created_by: null }),
    webhookRow(a, { id: 'e-hook', created_at: T0, url: 'https://hooks.example.test/ÄÖÜ?q=1&r=2' }),
    webhookRow(a, { created_at: T1, previous_secret: 'whsec_b2xkLW9sZC1vbGQ=', previous_secret_expires_at: LATER }),
    webhookRow(a, { created_at: T1, enabled: 0, consecutive_failures: 2_147_483_000, disabled_at: T1, updated_at: T1 }),
    webhookRow(a, { created_at: '2026-04-01T08:30:00.000Z', events: '[]', name: '' }),
    webhookRow(b, { created_at: T0 }),
  ];
}

/** Every page of a workspace's list, `limit` at a time, as the handlers walk it. */
function allPages(store: WebhookStore, workspaceId: string, limit: number): Promise<WebhookRow[][]> {
  return everyPage<WebhookRow, CreatedPosition>((pageLimit, position) => store.list(workspaceId, pageLimit, position), (last) => [last.created_at, last.id], limit);
}

/** A pair over the same workspaces and webhooks: written to SQLite, then copied row by row. */
async function filledPair(): Promise<{ pair: StorePair; stores: [WebhookStore, WebhookStore]; a: TestWorkspace; b: TestWorkspace; hooks: WebhookRow[] }> {
  const pair = await storePairForThisTest();
  const a = await createTestWorkspace(pair.sqlite);
  const b = await createTestWorkspace(pair.sqlite);
  const hooks = variedWebhooks(a, b);
  for (const hook of hooks) await pair.sqlite.webhooks.insertUnderCap(hook, Infinity);
  await copySqliteToPostgres(pair.sqlite.db, pair.pool);
  return { pair, stores: [pair.sqlite.webhooks, createPostgresWebhookStore(pair.pool)], a, b, hooks };
}

describe.skipIf(!postgresAvailable())('PostgreSQL webhook store, against SQLite over the same rows', () => {
  it('reads each webhook the same, and nothing for a missing id or another workspace', async () => {
    const { stores, a, b, hooks } = await filledPair();
    for (const hook of hooks) {
      expect(await sameAnswer(stores, (s) => s.get(hook.workspace_id, hook.id))).toStrictEqual(hook);
    }
    expect(await sameAnswer(stores, (s) => s.get(a.workspaceId, 'no-such-hook'))).toBeUndefined();
    expect(await sameAnswer(stores, (s) => s.get(b.workspaceId, hooks[0]!.id))).toBeUndefined();
  });

  it('lists in (created_at, id) code-point order with the same pages at every page size', async () => {
    const { stores, a, b } = await filledPair();
    const whole = await sameAnswer(stores, (s) => s.list(a.workspaceId, 100));
    expect(whole.slice(0, 4).map((w) => w.id)).toEqual(['B-hook', 'a-hook', 'e-hook', 'É-hook']);
    expect(whole).toHaveLength(7);
    for (const limit of [1, 2, 3, 4, 6, 7, 8]) {
      const pages = await sameAnswer(stores, (s) => allPages(s, a.workspaceId, limit), `pages of ${limit}`);
      expect(pages.flat()).toStrictEqual(whole);
    }
    expect(await sameAnswer(stores, (s) => s.list(b.workspaceId, 25))).toHaveLength(1);
    expect(await sameAnswer(stores, (s) => s.list(randomUUID(), 25))).toEqual([]);
    // After the last row, and after a position that matches no row (between two ids of a tie).
    const last = whole[whole.length - 1]!;
    expect(await sameAnswer(stores, (s) => s.list(a.workspaceId, 25, [last.created_at, last.id]))).toEqual([]);
    expect(await sameAnswer(stores, (s) => s.list(a.workspaceId, 25, [T0, 'C']))).toHaveLength(6);
  });

  it('answers every write the same and leaves the same rows', async () => {
    const { pair, stores, a, b, hooks } = await filledPair();
    const [first, second, third] = hooks;
    const disabled = hooks[5]!;
    const writes: Array<[string, (s: WebhookStore) => Promise<unknown>]> = [
      ['update of every field', (s) => s.update(a.workspaceId, first!.id, { url: 'https://hooks.example.test/v2', name: 'Orders v2', description: 'Ünïcode', events: '["topic.status_updated"]' }, LATER)],
      ['update of the name only', (s) => s.update(a.workspaceId, second!.id, { name: 'Renamed' }, LATER)],
      ['update setting the description to null', (s) => s.update(a.workspaceId, third!.id, { description: null }, LATER)],
      ['update of nothing', (s) => s.update(a.workspaceId, third!.id, {}, '2026-04-03T00:00:00.000Z')],
      ['update of a missing webhook', (s) => s.update(a.workspaceId, 'no-such-hook', { name: 'x' }, LATER)],
      ['update from another workspace', (s) => s.update(b.workspaceId, first!.id, { name: 'x' }, LATER)],
      ['enable of an enabled webhook', (s) => s.enable(a.workspaceId, first!.id, LATER)],
      ['enable of a disabled one', (s) => s.enable(a.workspaceId, disabled.id, LATER)],
      ['disable', (s) => s.disable(a.workspaceId, second!.id, LATER)],
      ['disable again keeps the first time', (s) => s.disable(a.workspaceId, second!.id, '2026-04-04T00:00:00.000Z')],
      ['disable of a missing webhook', (s) => s.disable(a.workspaceId, 'no-such-hook', LATER)],
      ['rotate keeping the previous secret', (s) => s.rotate(a.workspaceId, first!.id, { secret: 'whsec_bmV3', previousExpiresAt: LATER }, LATER)],
      ['rotate dropping it', (s) => s.rotate(a.workspaceId, third!.id, { secret: 'whsec_bmV3ZXI=', previousExpiresAt: null }, LATER)],
      ['rotate from another workspace', (s) => s.rotate(b.workspaceId, third!.id, { secret: 'x', previousExpiresAt: null }, LATER)],
      ['delete', (s) => s.delete(a.workspaceId, hooks[6]!.id)],
      ['delete again', (s) => s.delete(a.workspaceId, hooks[6]!.id)],
      ['delete from another workspace', (s) => s.delete(b.workspaceId, first!.id)],
      // The workspace holds 6 webhooks here: room for one more under a cap of 7, none past it.
      ['insert under the cap', (s) => s.insertUnderCap(webhookRow(a, { id: 'inserted', created_at: T0, description: null, created_by: null }), 7)],
      ['insert past the cap', (s) => s.insertUnderCap(webhookRow(a, { id: 'one-too-many', created_at: T0 }), 7)],
      ['insert in another workspace under its own count', (s) => s.insertUnderCap(webhookRow(b, { id: 'b-second', created_at: T0 }), 2)],
    ];
    for (const [what, write] of writes) await sameAnswer(stores, write, what);
    await expectSameTable(pair, 'webhooks', 'id');
    await sameAnswer(stores, (s) => allPages(s, a.workspaceId, 3));
  });

  it('refuses a second webhook with the same id on both', async () => {
    const { stores, a, hooks } = await filledPair();
    for (const store of stores) await expect(store.insertUnderCap(webhookRow(a, { id: hooks[0]!.id }), Infinity)).rejects.toThrow();
  });
});
