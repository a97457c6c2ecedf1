import { ServiceError } from '../errors/service-error.js';
import type { OperationHandler } from './handler-types.js';
import { camelCaseTimes, readRecordPage, snakeCaseTimes } from './paging.js';
import { ok } from './success.js';

export const listArticles: OperationHandler<'listArticles'> = async ({ query, caller, store, cursors }) => {
  const workspaceId = caller.principal.workspace_id;
  const filters = { workspaceId, status: query.status, buyerStage: query.buyer_stage, topicId: query.topic };
  return ok(await readRecordPage(
    cursors,
    { list: 'listArticles', workspaceId, filters: { status: query.status, buyer_stage: query.buyer_stage, topic: query.topic } },
    query,
    (page) => store.content.listArticles(filters, page),
    camelCaseTimes,
  ));
};

export const getArticle: OperationHandler<'getArticle'> = async ({ path, caller, store }) => {
  const article = await store.content.getArticle(caller.principal.workspace_id, path.article);
  if (!article) throw ServiceError.notFound('Article');
  return ok(article);
};

export const listIdeas: OperationHandler<'listIdeas'> = async ({ query, caller, store, cursors }) => {
  const workspaceId = caller.principal.workspace_id;
  const filters = { workspaceId, researchBatchId: query.research_batch, buyerStage: query.buyer_stage, topicId: query.topic };
  return ok(await readRecordPage(
    cursors,
    { list: 'listIdeas', workspaceId, filters: { research_batch: query.research_batch, buyer_stage: query.buyer_stage, topic: query.topic } },
    query,
    (page) => store.content.listIdeas(filters, page),
    snakeCaseTimes,
  ));
};

export const getIdea: OperationHandler<'getIdea'> = async ({ path, caller, store }) => {
  const idea = await store.content.getIdea(caller.principal.workspace_id, path.idea);
  if (!idea) throw ServiceError.notFound('Idea');
  return ok(idea);
};

export const listResearchBatches: OperationHandler<'listResearchBatches'> = async ({ query, caller, store, cursors }) => {
  const workspaceId = caller.principal.workspace_id;
  const filters = { workspaceId, status: query.status, topicId: query.topic, buyerStage: query.buyer_stage };
  return ok(await readRecordPage(
    cursors,
    { list: 'listResearchBatches', workspaceId, filters: { status: query.status, topic: query.topic, buyer_stage: query.buyer_stage } },
    query,
    (page) => store.content.listResearchBatches(filters, page),
    camelCaseTimes,
  ));
};

export const getResearchBatch: OperationHandler<'getResearchBatch'> = async ({ path, caller, store }) => {
  const batch = await store.content.getResearchBatch(caller.principal.workspace_id, path.research_batch);
  if (!batch) throw ServiceError.notFound('Research batch');
  return ok(batch);
};

export const listAgentTasks: OperationHandler<'listAgentTasks'> = async ({ query, caller, store, cursors }) => {
  const workspaceId = caller.principal.workspace_id;
  const filters = { workspaceId, status: query.status, agentId: query.agent };
  return ok(await readRecordPage(
    cursors,
    { list: 'listAgentTasks', workspaceId, filters: { status: query.status, agent: query.agent } },
    query,
    (page) => store.content.listAgentTasks(filters, page),
    snakeCaseTimes,
  ));
};

export const getAgentTask: OperationHandler<'getAgentTask'> = async ({ path, caller, store }) => {
  const task = await store.content.getAgentTask(caller.principal.workspace_id, path.agent_task);
  if (!task) throw ServiceError.notFound('Agent task');
  return ok(task);
};
