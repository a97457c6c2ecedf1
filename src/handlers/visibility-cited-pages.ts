import type { OperationHandler } from '../operations/handler-types.js';
import { readCitedPages } from '../visibility/cited-pages.js';
import { ok } from '../operations/success.js';

export const listCitedPages: OperationHandler<'listCitedPages'> = async ({ caller, store, cursors, query, now }) =>
  ok(await readCitedPages(store, cursors, {
    workspaceId: caller.principal.workspace_id,
    range: query.range,
    platform: query.platform,
    contentMapPageId: query.content_map_page,
    limit: query.limit,
    cursor: query.cursor,
    now,
  }));
