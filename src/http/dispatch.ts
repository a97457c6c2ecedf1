import type { NextFunction, Request, Response } from 'express';
import { OpenAPIBackend, type Context, type Document, type Operation, type Request as RouterRequest } from 'openapi-backend';
import { getApiKeyCaller, getWorkspaceCaller } from './request-context.js';
import type { OperationHandler, OperationId, ReadHandlers, StreamResult } from './operation-types.js';
import type { AdminHandlerContext, AdminHandlers, AdminServices } from './operation-types.js';
import type { AdminOperationId } from './admin-operations.js';
import type { Store } from '../store/index.js';

/** What express-openapi-validator records on a request it matched to an operation of the contract. */
interface MatchedRequest extends Request {
  openapi?: { schema?: { operationId?: string } };
}

type Dispatch = (params: Record<string, string>, req: Request, res: Response) => Promise<void>;

function isStream(result: object): result is StreamResult {
  return 'stream' in result;
}

/** A request for openapi-backend, carrying the operation express-openapi-validator already matched. */
interface HintedRequest extends RouterRequest {
  matchedOperationId?: string;
}

/**
 * openapi-backend, routed by the operation the validator already matched. Its own router builds a
 * regular expression per operation on every request; matching the path twice took more than half
 * of a request's CPU time, so an operationId hint short-circuits the match (an unhinted request
 * still goes through the router). Our 3.1 document is validated by the lint gate, not by
 * openapi-backend's 3.0 meta-schema.
 */
class ContractBackend extends OpenAPIBackend {
  override validateDefinition(): Document {
    return this.document;
  }

  override async init(): Promise<this> {
    await super.init();
    const byId = new Map<string, Operation>(this.router.getOperations().map((op) => [op.operationId ?? '', op]));
    const match = this.router.matchOperation.bind(this.router);
    this.router.matchOperation = ((req: HintedRequest, strict?: boolean) =>
      (req.matchedOperationId ? byId.get(req.matchedOperationId) : undefined) ?? match(req, strict as true)) as typeof this.router.matchOperation;
    return this;
  }
}

/**
 * Dispatches each request through openapi-backend to the handler registered for its operationId.
 * express-openapi-validator has already matched and validated the request (`req.openapi`), so
 * query values arrive coerced and defaulted and `validate: false` here.
 */
export async function createDispatcher(
  document: object,
  handlers: ReadHandlers,
  deps: { store: Store; now: () => Date; admin: { handlers: AdminHandlers; services: AdminServices } },
) {
  const registered: Record<string, Dispatch> = {};
  // Each handler is checked against its own operation where it is declared; here they are only
  // called, and the union of every operation's results would collapse to never.
  type AnyHandler = (ctx: Parameters<OperationHandler<OperationId>>[0]) => { status: number; body: unknown } | StreamResult;
  for (const [operationId, handler] of Object.entries(handlers) as Array<[OperationId, AnyHandler]>) {
    registered[operationId] = async (params, req, res) => {
      const result = handler({
        query: req.query as never,
        path: params as never,
        caller: getApiKeyCaller(res),
        store: deps.store,
        now: deps.now(),
      });
      if (isStream(result)) {
        res.status(200).set({
          'Content-Type': result.stream.contentType,
          'Content-Disposition': `attachment; filename="${result.stream.filename}"`,
        });
        await result.stream.write(res);
        res.end();
        return;
      }
      res.status(result.status).json(result.body);
    };
  }
  // Administration handlers may wait (name resolution, a test delivery) and get the request body.
  type AnyAdminHandler = (ctx: AdminHandlerContext<AdminOperationId>) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
  for (const [operationId, handler] of Object.entries(deps.admin.handlers) as Array<[AdminOperationId, AnyAdminHandler]>) {
    registered[operationId] = async (params, req, res) => {
      const result = await handler({
        query: req.query as never,
        path: params as never,
        body: req.body as never,
        caller: getWorkspaceCaller(res) as never,
        store: deps.store,
        now: deps.now(),
        services: deps.admin.services,
      });
      res.status(result.status).json(result.body);
    };
  }
  const backend = new ContractBackend({ definition: structuredClone(document) as Document, validate: false, quick: true });
  const routed: Record<string, (c: Context, req: Request, res: Response) => Promise<void>> = {};
  for (const [operationId, dispatch] of Object.entries(registered)) {
    routed[operationId] = (c, req, res) => dispatch((c.request.params ?? {}) as Record<string, string>, req, res);
  }
  backend.register(routed);
  // Authentication already happened in the middleware chain; the backend only routes.
  const schemes = (document as { components?: { securitySchemes?: Record<string, unknown> } }).components?.securitySchemes ?? {};
  for (const scheme of Object.keys(schemes)) backend.registerSecurityHandler(scheme, () => true);
  await backend.init();
  return (req: Request, res: Response, next: NextFunction): void => {
    const operationId = (req as MatchedRequest).openapi?.schema?.operationId;
    if (operationId === undefined || !(operationId in registered)) {
      // Not an operation of the contract: the 404 after the dispatcher answers.
      next();
      return;
    }
    const hinted: HintedRequest = {
      method: req.method,
      path: req.path,
      query: req.query as Record<string, string>,
      headers: req.headers as Record<string, string>,
      matchedOperationId: operationId,
    };
    backend.handleRequest(hinted, req, res).catch(next);
  };
}

/** The operationIds the contract declares, for the handler-set check in the contract tests. */
export function contractOperationIds(document: { paths?: Record<string, Record<string, { operationId?: string }>> }): string[] {
  const ids: string[] = [];
  for (const item of Object.values(document.paths ?? {})) {
    for (const op of Object.values(item)) if (op && typeof op === 'object' && op.operationId) ids.push(op.operationId);
  }
  return ids.sort();
}
