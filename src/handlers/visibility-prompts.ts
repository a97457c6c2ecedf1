import { ServiceError } from '../errors/service-error.js';
import type { OperationHandler } from '../operations/handler-types.js';
import { readPromptAnalytics, readPromptList } from '../analytics/prompt-reads.js';
import { ok } from '../operations/success.js';

export const listPrompts: OperationHandler<'listPrompts'> = async ({ query, caller, store, cursors, now }) =>
  ok(await readPromptList(store, cursors, {
    workspaceId: caller.principal.workspace_id,
    range: query.range,
    alpha: query.alpha,
    status: query.status,
    categoryId: query.category_id,
    q: query.q,
    limit: query.limit,
    cursor: query.cursor,
    order: query.order,
    updatedAfter: query.updated_after,
    now,
  }));

export const getPromptAnalytics: OperationHandler<'getPromptAnalytics'> = async ({ path, query, caller, store, now }) => {
  const analytics = await readPromptAnalytics(store, {
    workspaceId: caller.principal.workspace_id,
    promptId: path.prompt,
    range: query.range,
    alpha: query.alpha,
    now,
  });
  if (!analytics) throw ServiceError.notFound('Prompt');
  return ok(analytics);
};
