import { ServiceError } from '../errors/service-error.js';
import type { OperationHandler } from '../operations/handler-types.js';
import { readAnswer, readAnswers } from '../visibility/answers.js';
import { ok } from '../operations/success.js';

export const listAnswers: OperationHandler<'listAnswers'> = async ({ caller, store, cursors, query, now }) =>
  ok(await readAnswers(store, cursors, {
    workspaceId: caller.principal.workspace_id,
    range: query.range,
    prompt: query.prompt,
    platform: query.platform,
    mentioned: query.mentioned,
    cited: query.cited,
    limit: query.limit,
    cursor: query.cursor,
    order: query.order,
    updatedAfter: query.updated_after,
    now,
  }));

export const getAnswer: OperationHandler<'getAnswer'> = async ({ caller, store, path }) => {
  const answer = await readAnswer(store, caller.principal.workspace_id, path.answer.toLowerCase());
  if (!answer) throw ServiceError.notFound('Answer');
  return ok(answer);
};
