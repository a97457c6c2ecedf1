import { ServiceError } from '../errors/service-error.js';
import type { OperationHandler } from './handler-types.js';
import { readCreatedOrderPage } from './paging.js';
import { ok } from './success.js';

export const listArticles: OperationHandler<'listArticles'> = ({ query, caller, store }) => {
  const workspaceId = caller.principal.workspace_id;
  const filters = { workspaceId, status: query.status, buyerStage: query.buyer_stage, topicId: query.topic };
  return ok(readCreatedOrderPage(
    { list: 'listArticles', workspaceId, filters: { status: query.status, buyer_stage: query.buyer_stage, topic: query.topic } },
    query,
    (limit, after) => store.content.listArticles(filters, limit, after),
    (article) => [article.createdAt, article.id],
  ));
};

export const getArticle: OperationHandler<'getArticle'> = ({ path, caller, store }) => {
  const article = store.content.getArticle(caller.principal.workspace_id, path.article);
  if (!article) throw ServiceError.notFound('Article');
  return ok(article);
};

export const listIdeas: OperationHandler<'listIdeas'> = ({ query, caller, store }) => {
  const workspaceId = caller.principal.workspace_id;
  const filters = { workspaceId, researchBatchId: query.research_batch, buyerStage: query.buyer_stage, topicId: query.topic };
  return ok(readCreatedOrderPage(
    { list: 'listIdeas', workspaceId, filters: { research_batch: query.research_batch, buyer_stage: query.buyer_stage, topic: query.topic } },
    query,
    (limit, after) => store.content.listIdeas(filters, limit, after),
    (idea) => [idea.created_at, idea.id],
  ));
};

export const getIdea: OperationHandler<'getIdea'> = ({ path, caller, store }) => {
  const idea = store.content.getIdea(caller.principal.workspace_id, path.idea);
  if (!idea) throw ServiceError.notFound('Idea');
  return ok(idea);
};
