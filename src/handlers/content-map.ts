import { ServiceError } from '../errors/service-error.js';
import type { OperationHandler } from './handler-types.js';
import { camelCaseTimes, readRecordPage, snakeCaseTimes } from './paging.js';
import { ok } from './success.js';

export const listTopics: OperationHandler<'listTopics'> = async ({ query, caller, store, cursors }) => {
  const workspaceId = caller.principal.workspace_id;
  const filters = { workspaceId, stage: query.stage };
  return ok(await readRecordPage(
    cursors,
    { list: 'listTopics', workspaceId, filters: { stage: query.stage } },
    query,
    (page) => store.contentMap.listTopics(filters, page),
    camelCaseTimes,
  ));
};

export const getTopic: OperationHandler<'getTopic'> = async ({ path, caller, store }) => {
  const topic = await store.contentMap.getTopic(caller.principal.workspace_id, path.topic);
  if (!topic) throw ServiceError.notFound('Topic');
  return ok(topic);
};

export const listSites: OperationHandler<'listSites'> = async ({ query, caller, store, cursors }) => {
  const workspaceId = caller.principal.workspace_id;
  const filters = { workspaceId, type: query.type };
  return ok(await readRecordPage(
    cursors,
    { list: 'listSites', workspaceId, filters: { type: query.type } },
    query,
    (page) => store.contentMap.listSitemapUrls(filters, page),
    camelCaseTimes,
  ));
};

export const getSite: OperationHandler<'getSite'> = async ({ path, caller, store }) => {
  const site = await store.contentMap.getSitemapUrl(caller.principal.workspace_id, path.site);
  if (!site) throw ServiceError.notFound('Site');
  return ok(site);
};

export const listPages: OperationHandler<'listPages'> = async ({ query, caller, store, cursors }) => {
  const workspaceId = caller.principal.workspace_id;
  const filters = { workspaceId, siteId: query.site, topicId: query.topic, status: query.status };
  return ok(await readRecordPage(
    cursors,
    { list: 'listPages', workspaceId, filters: { site: query.site, topic: query.topic, status: query.status } },
    query,
    (page) => store.contentMap.listPages(filters, page),
    snakeCaseTimes,
  ));
};

export const getPage: OperationHandler<'getPage'> = async ({ path, caller, store }) => {
  const page = await store.contentMap.getPage(caller.principal.workspace_id, path.page);
  if (!page) throw ServiceError.notFound('Page');
  return ok(page);
};
