import { ServiceError } from '../errors/service-error.js';
import type { OperationHandler, OperationId } from './handler-types.js';
import type { IqRecord, IqRecordType, IqStage } from '../store/interfaces/iq.js';
import type { Store } from '../store/index.js';
import type { Cursors } from '../pagination/cursor.js';
import type { ApiKeyCaller } from '../keys/callers.js';
import { camelCaseTimes, readRecordPage, type RecordListQuery } from './paging.js';
import { ok } from './success.js';

// The five brand-intelligence collections are one record table read by kind; each list and
// by-id operation only differs in the kind it reads.

interface ListRequest {
  query: RecordListQuery & { stage?: IqStage };
  caller: ApiKeyCaller;
  store: Store;
  cursors: Cursors;
}

async function listOfKind(list: OperationId, type: IqRecordType, { query, caller, store, cursors }: ListRequest) {
  const workspaceId = caller.principal.workspace_id;
  const filters = { workspaceId, type, stage: query.stage };
  return ok(await readRecordPage<IqRecord>(
    cursors,
    { list, workspaceId, filters: { stage: query.stage } },
    query,
    (page) => store.iq.list(filters, page),
    camelCaseTimes,
  ));
}

async function getOfKind(type: IqRecordType, what: string, id: string, { caller, store }: { caller: ApiKeyCaller; store: Store }) {
  const record = await store.iq.get(caller.principal.workspace_id, id, type);
  if (!record) throw ServiceError.notFound(what);
  return ok(record);
}

export const listProducts: OperationHandler<'listProducts'> = (ctx) => listOfKind('listProducts', 'product', ctx);
export const getProduct: OperationHandler<'getProduct'> = (ctx) => getOfKind('product', 'Product', ctx.path.product, ctx);
export const listPersonas: OperationHandler<'listPersonas'> = (ctx) => listOfKind('listPersonas', 'persona', ctx);
export const getPersona: OperationHandler<'getPersona'> = (ctx) => getOfKind('persona', 'Persona', ctx.path.persona, ctx);
export const listBrandVoices: OperationHandler<'listBrandVoices'> = (ctx) => listOfKind('listBrandVoices', 'voice', ctx);
export const getBrandVoice: OperationHandler<'getBrandVoice'> = (ctx) => getOfKind('voice', 'Brand voice', ctx.path.voice, ctx);
export const listContentTypes: OperationHandler<'listContentTypes'> = (ctx) => listOfKind('listContentTypes', 'content_type', ctx);
export const getContentType: OperationHandler<'getContentType'> = (ctx) => getOfKind('content_type', 'Content type', ctx.path.content_type, ctx);
export const listVisualGuidelines: OperationHandler<'listVisualGuidelines'> = (ctx) => listOfKind('listVisualGuidelines', 'visual_guideline', ctx);
export const getVisualGuideline: OperationHandler<'getVisualGuideline'> = (ctx) =>
  getOfKind('visual_guideline', 'Visual guideline', ctx.path.visual_guideline, ctx);
