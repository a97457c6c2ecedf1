import { ServiceError } from '../errors/service-error.js';
import type { OperationHandler } from '../operations/handler-types.js';
import { camelCaseTimes, readRecordList, snakeCaseTimes } from '../pagination/record-page.js';
import { ok } from '../operations/success.js';

export const listArticles: OperationHandler<'listArticles'> = async (ctx) => ok(await readRecordList(ctx,
  (page) => ctx.store.content.listArticles({
    workspaceId: ctx.caller.principal.workspace_id, status: ctx.query.status, buyerStage: ctx.query.buyer_stage, topicId: ctx.query.topic,
  }, page),
  camelCaseTimes));

export const getArticle: OperationHandler<'getArticle'> = async ({ path, caller, store }) => {
  const article = await store.content.getArticle(caller.principal.workspace_id, path.article);
  if (!article) throw ServiceError.notFound('Article');
  return ok(article);
};

export const listIdeas: OperationHandler<'listIdeas'> = async (ctx) => ok(await readRecordList(ctx,
  (page) => ctx.store.content.listIdeas({
    workspaceId: ctx.caller.principal.workspace_id, researchBatchId: ctx.query.research_batch, buyerStage: ctx.query.buyer_stage, topicId: ctx.query.topic,
  }, page),
  snakeCaseTimes));

export const getIdea: OperationHandler<'getIdea'> = async ({ path, caller, store }) => {
  const idea = await store.content.getIdea(caller.principal.workspace_id, path.idea);
  if (!idea) throw ServiceError.notFound('Idea');
  return ok(idea);
};

export const listResearchBatches: OperationHandler<'listResearchBatches'> = async (ctx) => ok(await readRecordList(ctx,
  (page) => ctx.store.content.listResearchBatches({
    workspaceId: ctx.caller.principal.workspace_id, status: ctx.query.status, topicId: ctx.query.topic, buyerStage: ctx.query.buyer_stage,
  }, page),
  camelCaseTimes));

export const getResearchBatch: OperationHandler<'getResearchBatch'> = async ({ path, caller, store }) => {
  const batch = await store.content.getResearchBatch(caller.principal.workspace_id, path.research_batch);
  if (!batch) throw ServiceError.notFound('Research batch');
  return ok(batch);
};

export const listAgentTasks: OperationHandler<'listAgentTasks'> = async (ctx) => ok(await readRecordList(ctx,
  (page) => ctx.store.content.listAgentTasks({ workspaceId: ctx.caller.principal.workspace_id, status: ctx.query.status, agentId: ctx.query.agent }, page),
  snakeCaseTimes));

export const getAgentTask: OperationHandler<'getAgentTask'> = async ({ path, caller, store }) => {
  const task = await store.content.getAgentTask(caller.principal.workspace_id, path.agent_task);
  if (!task) throw ServiceError.notFound('Agent task');
  return ok(task);
};
