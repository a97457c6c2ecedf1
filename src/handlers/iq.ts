import { ServiceError } from '../errors/service-error.js';
import type { HandlerContext, OperationHandler } from '../operations/handler-types.js';
import type { IqRecord, IqRecordType } from '../store/interfaces/iq.js';
import type { Store } from '../store/index.js';
import type { ApiKeyCaller } from '../keys/callers.js';
import { camelCaseTimes, readRecordList } from '../pagination/record-page.js';
import { ok } from '../operations/success.js';

// The five brand-intelligence collections are one record table read by kind; each list and
// by-id operation only differs in the kind it reads.

type IqListOperation = 'listProducts' | 'listPersonas' | 'listBrandVoices' | 'listContentTypes' | 'listVisualGuidelines';

async function listOfKind(type: IqRecordType, ctx: HandlerContext<IqListOperation>) {
  return ok(await readRecordList<IqRecord>(ctx,
    (page) => ctx.store.iq.list({ workspaceId: ctx.caller.principal.workspace_id, type, stage: ctx.query.stage }, page),
    camelCaseTimes));
}

async function getOfKind(type: IqRecordType, what: string, id: string, { caller, store }: { caller: ApiKeyCaller; store: Store }) {
  const record = await store.iq.get(caller.principal.workspace_id, id, type);
  if (!record) throw ServiceError.notFound(what);
  return ok(record);
}

export const listProducts: OperationHandler<'listProducts'> = (ctx) => listOfKind('product', ctx);
export const getProduct: OperationHandler<'getProduct'> = (ctx) => getOfKind('product', 'Product', ctx.path.product, ctx);
export const listPersonas: OperationHandler<'listPersonas'> = (ctx) => listOfKind('persona', ctx);
export const getPersona: OperationHandler<'getPersona'> = (ctx) => getOfKind('persona', 'Persona', ctx.path.persona, ctx);
export const listBrandVoices: OperationHandler<'listBrandVoices'> = (ctx) => listOfKind('voice', ctx);
export const getBrandVoice: OperationHandler<'getBrandVoice'> = (ctx) => getOfKind('voice', 'Brand voice', ctx.path.voice, ctx);
export const listContentTypes: OperationHandler<'listContentTypes'> = (ctx) => listOfKind('content_type', ctx);
export const getContentType: OperationHandler<'getContentType'> = (ctx) => getOfKind('content_type', 'Content type', ctx.path.content_type, ctx);
export const listVisualGuidelines: OperationHandler<'listVisualGuidelines'> = (ctx) => listOfKind('visual_guideline', ctx);
export const getVisualGuideline: OperationHandler<'getVisualGuideline'> = (ctx) =>
  getOfKind('visual_guideline', 'Visual guideline', ctx.path.visual_guideline, ctx);
