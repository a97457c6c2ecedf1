import type { NextFunction, Request, Response } from 'express';
import { OpenAPIBackend, type Context, type Document } from 'openapi-backend';
import { ApiError } from './api-error.js';
import { getApiKeyCaller, getWorkspaceCaller } from './request-context.js';
import type { OperationHandler, OperationId, ReadHandlers, StreamResult } from './operation-types.js';
import type { AdminHandlerContext, AdminHandlers, AdminServices } from './operation-types.js';
import type { AdminOperationId } from './admin-operations.js';
import type { Store } from '../store/index.js';

/** openapi-backend validates against the 3.0 meta-schema; our 3.1 document is validated by lint. */
class ContractRouter extends OpenAPIBackend {
  override validateDefinition(): Document {
    return this.document;
  }
}

function isStream(result: object): result is StreamResult {
  return 'stream' in result;
}

/**
 * Dispatches each request to the handler registered for its operationId. Request validation has
 * already happened (express-openapi-validator), so `validate: false` and query values arrive
 * coerced and defaulted on `req.query`.
 */
export async function createDispatcher(
  document: object,
  handlers: ReadHandlers,
  deps: { store: Store; now: () => Date; admin: { handlers: AdminHandlers; services: AdminServices } },
) {
  const router = new ContractRouter({
    definition: structuredClone(document) as Document,
    validate: false,
    strict: true,
    quick: true,
  });
  const registered: Record<string, (c: Context, req: Request, res: Response) => Promise<void>> = {};
  // Each handler is checked against its own operation where it is declared; here they are only
  // called, and the union of every operation's results would collapse to never.
  type AnyHandler = (ctx: Parameters<OperationHandler<OperationId>>[0]) => { status: number; body: unknown } | StreamResult;
  for (const [operationId, handler] of Object.entries(handlers) as Array<[OperationId, AnyHandler]>) {
    registered[operationId] = async (c, req, res) => {
      const result = handler({
        query: req.query as never,
        path: (c.request.params ?? {}) as never,
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
    registered[operationId] = async (c, req, res) => {
      const result = await handler({
        query: req.query as never,
        path: (c.request.params ?? {}) as never,
        body: req.body as never,
        caller: getWorkspaceCaller(res) as never,
        store: deps.store,
        now: deps.now(),
        services: deps.admin.services,
      });
      res.status(result.status).json(result.body);
    };
  }
  router.register({
    ...registered,
    notFound: async () => {
      throw ApiError.notFound('Route');
    },
  });
  // Authentication already happened in the middleware chain; the router only routes.
  const schemes = (document as { components?: { securitySchemes?: Record<string, unknown> } }).components?.securitySchemes ?? {};
  for (const scheme of Object.keys(schemes)) router.registerSecurityHandler(scheme, () => true);
  await router.init();
  return (req: Request, res: Response, next: NextFunction): void => {
    router
      .handleRequest({ method: req.method, path: req.path, query: req.query as Record<string, string>, headers: req.headers as Record<string, string> }, req, res)
      .catch(next);
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
