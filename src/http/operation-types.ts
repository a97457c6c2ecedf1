// Handler types derived from the generated contract, so that a missing handler, a wrong status or
// a body that does not match the schema fails `npm run typecheck`.
import type { operations } from '../../generated/openapi.js';
import type { Store } from '../store/index.js';
import type { ApiKeyCaller } from './request-context.js';

export type OperationId = keyof operations;

type Responses<Op extends OperationId> = operations[Op]['responses'];
type SuccessStatus = 200 | 201 | 202 | 204;
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : never;

type ParamsOf<Op extends OperationId> = operations[Op]['parameters'];
export type QueryOf<Op extends OperationId> = ParamsOf<Op> extends { query?: infer Q } ? ([Q] extends [never] ? Record<string, never> : NonNullable<Q>) : Record<string, never>;
export type PathOf<Op extends OperationId> = ParamsOf<Op> extends { path?: infer P } ? ([P] extends [never] ? Record<string, never> : NonNullable<P>) : Record<string, never>;

/** One of the documented success responses of the operation, with its exact JSON body. */
export type JsonResult<Op extends OperationId> = {
  [S in keyof Responses<Op> & SuccessStatus]: { status: S; body: JsonBody<Responses<Op>[S]> };
}[keyof Responses<Op> & SuccessStatus];

/** A streamed download (exports): the handler writes rows to the response itself. */
export interface StreamResult {
  status: 200;
  stream: { contentType: string; filename: string; write: (sink: NodeJS.WritableStream) => Promise<void> };
}

export interface HandlerContext<Op extends OperationId> {
  query: QueryOf<Op>;
  path: PathOf<Op>;
  caller: ApiKeyCaller;
  store: Store;
  now: Date;
}

export type OperationHandler<Op extends OperationId> = (ctx: HandlerContext<Op>) => JsonResult<Op> | StreamResult;

export type ReadHandlers = { [Op in OperationId]: OperationHandler<Op> };
