import { expect } from 'vitest';
import type { TestWorkspace } from '../../support/accounts.js';
import { articleLine, iqRecordLine, topicLine } from '../../support/content-records.js';
import { FEED_PATHS, type FeedEvent } from '../../support/event-feeds.js';
import { importRecords } from '../../support/visibility.js';
import type { OperationScenario, ScenarioContext } from './types.js';
import { invalidNaming } from './read-expectations.js';

// The three event feeds: one scenario shape, each with records whose arrival in a status or stage
// emits the feed's events (a record that first arrives in a state is announced as a change from
// nothing: test/integration/import/import-events.test.ts).
const FEEDS = [
  {
    operationId: 'listContentEvents', path: FEED_PATHS.content, event: 'content.status_updated', otherFeedsType: 'iq.status_updated',
    record: () => articleLine({ status: 'PUBLISHED' }),
  },
  {
    operationId: 'listContentMapEvents', path: FEED_PATHS['content-map'], event: 'topic.status_updated', otherFeedsType: 'content.status_updated',
    record: () => topicLine({ stage: 'READY' }),
  },
  {
    operationId: 'listIqEvents', path: FEED_PATHS.iq, event: 'iq.status_updated', otherFeedsType: 'topic.status_updated',
    record: () => iqRecordLine('persona', { stage: 'READY' }),
  },
] as const;

const itemId = (item: unknown) => `${(item as FeedEvent).event} ${(item as FeedEvent).data.id}`;

export const eventFeedScenarios: OperationScenario[] = FEEDS.map(({ operationId, path, event, otherFeedsType, record }): OperationScenario => {
  /** `n` records of the feed's kind, each arriving in a state: `n` events, oldest first. */
  async function seed(ctx: ScenarioContext, workspace: TestWorkspace, n: number): Promise<string[]> {
    const records = Array.from({ length: n }, record);
    await importRecords(ctx.store, workspace, records);
    return records.map((r) => `${event} ${r.id}`);
  }
  const seeded = new WeakMap<ScenarioContext, string[]>();
  return {
    operationId,
    statuses: {
      200: async (ctx) => {
        seeded.set(ctx, await seed(ctx, ctx.workspace, 2));
        return { path, query: { event_type: event } };
      },
      422: {
        'event_type belongs to another feed': () => ({ path, query: { event_type: otherFeedsType } }),
        'limit is 0': () => ({ path, query: { limit: 0 } }),
        'the cursor was altered': () => ({ path, query: { cursor: 'WzEwXQ.AAAAAAAAAAAAAAAA' } }),
      },
    },
    expect: {
      200: (res, ctx) => {
        const data = (res.body as { data: { items: FeedEvent[]; next_cursor: string; has_more: boolean } }).data;
        expect(data.items.map(itemId)).toEqual(seeded.get(ctx));
        expect(data.items.every((e) => e.workspace_id === ctx.workspace.workspaceId && !e.is_test)).toBe(true);
        expect([typeof data.next_cursor, data.has_more]).toEqual(['string', false]);
      },
      422: invalidNaming(/query\.(event_type|limit|cursor)/),
    },
    list: { seed, itemId },
  };
});
