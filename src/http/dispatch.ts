import type { NextFunction, Request, Response } from 'express';
import { getApiKeyCaller, getWorkspaceCaller } from './request-context.js';
import type { OperationHandler, OperationId, ReadHandlers, StreamResult } from './operation-types.js';
import type { AdminHandlerContext, AdminHandlers, AdminServices } from './operation-types.js';
import type { AdminOperationId } from './admin-operations.js';
import type { Store } from '../store/index.js';

/** What express-openapi-validator records on a request it matched to an operation of the contract. */
interface MatchedRequest extends Request {
  openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> };
}

type Dispatch = (params: Record<string, string>, req: Request, res: Response) => Promise<void>;

function isStream(result: object): result is StreamResult {
  return 'stream' in result;
}

/**
 * Dispatches each request to the handler registered for its operationId. express-openapi-validator
 * has already matched the request to its operation (`req.openapi`: the operation and the decoded
 * path parameters) and validated it, so query values arrive coerced and defaulted and dispatch is
 * one map lookup. Matching the path a second time with openapi-backend's router (a regular
 * expression built per operation per request) took more than half of a request's CPU time.
 */
export function createDispatcher(
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
  return (req: Request, res: Response, next: NextFunction): void => {
    const matched = (req as MatchedRequest).openapi;
    const operationId = matched?.schema?.operationId;
    const handle = operationId === undefined ? undefined : registered[operationId];
    if (!handle) {
      // Not an operation of the contract: the 404 after the dispatcher answers.
      next();
      return;
    }
    handle(matched?.pathParams ?? {}, req, res).catch(next);
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
