import type { HandlerContext, OperationHandler } from '../operations/handler-types.js';
import { readEventFeed, type FeedRequest } from '../events/feeds.js';
import { ok } from '../operations/success.js';

type FeedOperation = 'listContentEvents' | 'listContentMapEvents' | 'listIqEvents';

function feedRequest({ query, caller, now }: HandlerContext<FeedOperation>): FeedRequest {
  return { workspaceId: caller.principal.workspace_id, eventType: query.event_type, limit: query.limit, cursor: query.cursor, now };
}

export const listContentEvents: OperationHandler<'listContentEvents'> = async (ctx) => ok(await readEventFeed(ctx.store, ctx.cursors, 'content', feedRequest(ctx)));

export const listContentMapEvents: OperationHandler<'listContentMapEvents'> = async (ctx) => ok(await readEventFeed(ctx.store, ctx.cursors, 'content-map', feedRequest(ctx)));

export const listIqEvents: OperationHandler<'listIqEvents'> = async (ctx) => ok(await readEventFeed(ctx.store, ctx.cursors, 'iq', feedRequest(ctx)));
