import { ServiceError } from '../errors/service-error.js';
import type { OperationHandler } from '../operations/handler-types.js';
import { camelCaseTimes, readRecordList, snakeCaseTimes } from '../pagination/record-page.js';
import { ok } from '../operations/success.js';

export const listTopics: OperationHandler<'listTopics'> = async (ctx) => ok(await readRecordList(ctx,
  (page) => ctx.store.contentMap.listTopics({ workspaceId: ctx.caller.principal.workspace_id, stage: ctx.query.stage }, page),
  camelCaseTimes));

export const getTopic: OperationHandler<'getTopic'> = async ({ path, caller, store }) => {
  const topic = await store.contentMap.getTopic(caller.principal.workspace_id, path.topic);
  if (!topic) throw ServiceError.notFound('Topic');
  return ok(topic);
};

export const listSites: OperationHandler<'listSites'> = async (ctx) => ok(await readRecordList(ctx,
  (page) => ctx.store.contentMap.listSitemapUrls({ workspaceId: ctx.caller.principal.workspace_id, type: ctx.query.type }, page),
  camelCaseTimes));

export const getSite: OperationHandler<'getSite'> = async ({ path, caller, store }) => {
  const site = await store.contentMap.getSitemapUrl(caller.principal.workspace_id, path.site);
  if (!site) throw ServiceError.notFound('Site');
  return ok(site);
};

export const listPages: OperationHandler<'listPages'> = async (ctx) => ok(await readRecordList(ctx,
  (page) => ctx.store.contentMap.listPages({
    workspaceId: ctx.caller.principal.workspace_id, siteId: ctx.query.site, topicId: ctx.query.topic, status: ctx.query.status,
  }, page),
  snakeCaseTimes));

export const getPage: OperationHandler<'getPage'> = async ({ path, caller, store }) => {
  const page = await store.contentMap.getPage(caller.principal.workspace_id, path.page);
  if (!page) throw ServiceError.notFound('Page');
  return ok(page);
};
