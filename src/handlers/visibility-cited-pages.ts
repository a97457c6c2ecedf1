import type { OperationHandler } from './handler-types.js';
import { DEFAULT_RANGE } from '../analytics/periods.js';
import { readCitedPages } from '../visibility/cited-pages.js';
import { ok } from './success.js';

export const listCitedPages: OperationHandler<'listCitedPages'> = async ({ caller, store, cursors, query, now }) =>
  ok(await readCitedPages(store, cursors, {
    workspaceId: caller.principal.workspace_id,
    range: query.range ?? DEFAULT_RANGE,
    platform: query.platform,
    contentMapPageId: query.content_map_page,
    limit: query.limit ?? 25,
    cursor: query.cursor,
    now,
  }));
