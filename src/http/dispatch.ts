import type { NextFunction, Request, Response } from 'express';
import { OpenAPIBackend, type Context, type Document, type Operation } from 'openapi-backend';
import { getApiKeyCaller, getWorkspaceCaller, matchedOperation } from './request-context.js';
import type { OperationMatch } from '@workspace-read-api/contract/operation-matcher.js';
import type { ContractOperation } from '@workspace-read-api/contract/contract-operations.js';
import { perContract } from '@workspace-read-api/contract/per-contract.js';
import { runIdempotently } from './idempotent-writes.js';
import { auditActorOf, auditSourceOf } from './audit-source.js';
import { auditObjectOf, auditOf } from './operation-audit.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { recordAudit, type AuditEntry } from '../audit/record-audit.js';
import { writeLines } from './write-lines.js';
import type { AdminHandlerContext, AdminHandlers, AdminLookupsFirst, AdminOperationId, AdminServices, OperationHandler, OperationId, ReadHandlers, StreamResult } from '../operations/handler-types.js';
import { rememberingResolver } from '../webhooks/remembered-lookups.js';
import { systemResolver } from '../webhooks/ssrf-guard.js';
import type { Store } from '../store/index.js';
import type { Cursors } from '../pagination/cursor.js';
import type { PendingRequestCounts } from '../workspace/api-request-counter.js';

/** A handler as openapi-backend calls it: the context, then the arguments we pass along. */
type Routed = (c: Context, req: Request, res: Response) => Promise<void>;

function isStream(result: object): result is StreamResult {
  return 'stream' in result;
}

/** Sends a handler's answer with the headers its response documents as constants (`Cache-Control: no-store` on a secret). */
function sendResult(res: Response, result: { status: number; body: unknown }): void {
  const constants = matchedOperation(res)?.operation.constantHeaders.get(result.status);
  if (constants !== undefined) res.set(constants);
  res.status(result.status).json(result.body);
}

/**
 * The audit entries of a successful administration write: the operation's own action on its object,
 * then what the handler reached in cascade (the keys and tokens a member's removal revoked), each
 * with the request's actor, address and request id.
 */
function auditEntriesOf(operation: ContractOperation, path: Record<string, unknown>, answer: unknown, trail: AuditTrail, req: Request, res: Response): AuditEntry[] {
  const audit = auditOf(operation);
  if (audit === null) throw new Error(`${operation.method} ${operation.path}: an administration operation without x-audit, so the audit log cannot record it`);
  const workspaceId = String(path.workspace_id).toLowerCase();
  const who = { workspaceId, actor: auditActorOf(res), ...auditSourceOf(req, res) };
  return [
    { ...who, action: audit.action, object: auditObjectOf(audit, path, answer) },
    ...trail.entries.map((entry) => ({ ...who, ...entry })),
  ];
}

/**
 * The context openapi-backend gives a handler, for the operation our matcher found: its path
 * parameters are the ones the guards checked. The validator has already validated the request.
 */
function contextFor(backend: OpenAPIBackend, operation: Operation, match: OperationMatch, req: Request): Context {
  return {
    api: backend,
    operation,
    request: {
      method: req.method.toLowerCase(),
      path: req.path,
      params: match.params,
      query: req.query,
      headers: req.headers,
      requestBody: req.body as unknown,
      cookies: {},
    },
    validation: { valid: true, errors: null },
    security: { authorized: true },
    response: undefined,
  };
}

/**
 * The request's query as validated, with every parameter it left out that the contract defaults
 * set to that default: a handler never writes one (the handler types make them present).
 */
function queryOf(req: Request, res: Response): Record<string, unknown> {
  return { ...matchedOperation(res)?.operation.queryDefaults, ...(req.query as Record<string, unknown>) };
}

/**
 * The request's JSON body as validated, with every property it left out that the contract defaults
 * set to that default, a body left out included: a handler never writes one (the handler types make
 * them present). The request's own body is left as it came.
 */
function bodyOf(req: Request, res: Response): unknown {
  const defaults = matchedOperation(res)?.operation.bodyDefaults ?? {};
  if (Object.keys(defaults).length === 0) return req.body as unknown;
  const body = req.body as unknown;
  // The validator let through only an object here, or no body at all where the body is optional.
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) return body;
  return { ...structuredClone(defaults), ...body };
}

/** Each app's handlers by operationId, as openapi-backend calls them. */
type HandlerTable = Record<string, Routed>;

/**
 * openapi-backend loaded with a contract: its operations by operationId, and one registered
 * handler per operation that calls the app's own, which the dispatcher passes along with the
 * request (openapi-backend hands a handler whatever follows the context). Loading the document and
 * registering cost about 150 ms and depend only on the contract, so apps built from the same
 * contract share them (per-contract.ts).
 */
const loadedBackends = perContract(async (document) => {
  // `quick` skips openapi-backend's check against the OpenAPI 3.0 meta-schema: our document is
  // 3.1, checked by the lint gate instead.
  const backend = new OpenAPIBackend({ definition: structuredClone(document) as Document, validate: false, quick: true, strict: true });
  await backend.init();
  const operations = new Map(backend.getOperations().map((op) => [op.operationId ?? '', op]));
  const forwarders: Record<string, (c: Context, table: HandlerTable, req: Request, res: Response) => Promise<void>> = {};
  for (const operationId of operations.keys()) {
    forwarders[operationId] = async (c, table, req, res) => {
      const handler = Object.hasOwn(table, operationId) ? table[operationId] : undefined;
      if (handler === undefined) throw new Error(`no handler is registered for the operation ${operationId}`);
      await handler(c, req, res);
    };
  }
  backend.register(forwarders);
  return { backend, operations };
});

/**
 * Calls the handler of the operation the request was matched to (src/http/route-match.ts) through
 * openapi-backend's public API only: `getOperations` gives each operation once, `register` takes a
 * handler per operation, and a handler whose operationId the contract lacks stops the start-up.
 * Routing is not its job here: the request is matched once, before the guards, and only a request
 * that names an operation gets this far. express-openapi-validator has already validated it, so
 * query values arrive coerced and `validate: false` here; the contract's defaults are filled in
 * from the matched operation (queryOf, bodyOf).
 */
export async function createDispatcher(
  document: object,
  handlers: ReadHandlers,
  deps: {
    store: Store;
    requestCounts: PendingRequestCounts;
    cursors: Cursors;
    now: () => Date;
    admin: { handlers: AdminHandlers; services: AdminServices; lookupsFirst?: AdminLookupsFirst };
  },
) {
  const routed: HandlerTable = {};
  // Each handler is checked against its own operation where it is declared; here they are only
  // called, and the union of every operation's results would collapse to never.
  type AnyResult = { status: number; body: unknown } | StreamResult;
  type AnyHandler = (ctx: Parameters<OperationHandler<OperationId>>[0]) => AnyResult | Promise<AnyResult>;
  for (const [operationId, handler] of Object.entries(handlers) as Array<[OperationId, AnyHandler]>) {
    routed[operationId] = async (c, req, res) => {
      const result = await handler({
        operationId,
        query: queryOf(req, res) as never,
        path: c.request.params as never,
        caller: getApiKeyCaller(res),
        store: deps.store,
        requestCounts: deps.requestCounts,
        cursors: deps.cursors,
        now: deps.now(),
      });
      if (isStream(result)) {
        res.status(200).set({
          'Content-Type': result.stream.contentType,
          'Content-Disposition': `attachment; filename="${result.stream.filename}"`,
        });
        await writeLines(res, result.stream.lines());
        res.end();
        return;
      }
      sendResult(res, result);
    };
  }
  // Administration handlers may wait (name resolution, a test delivery) and get the request body.
  type AnyAdminHandler = (ctx: AdminHandlerContext<AdminOperationId>) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
  const lookupsFirst = (deps.admin.lookupsFirst ?? {}) as Partial<Record<AdminOperationId, (ctx: AdminHandlerContext<AdminOperationId>) => Promise<unknown>>>;
  for (const [operationId, handler] of Object.entries(deps.admin.handlers) as Array<[AdminOperationId, AnyAdminHandler]>) {
    const lookUp = lookupsFirst[operationId];
    routed[operationId] = async (c, req, res) => {
      const now = deps.now();
      const path = c.request.params as Record<string, unknown>;
      const operation = matchedOperation(res)?.operation;
      if (operation === undefined) throw new Error(`${operationId}: called without its matched operation`);
      const writes = operation.method !== 'GET' && operation.method !== 'HEAD';
      const trail = new AuditTrail();
      const { services } = deps.admin;
      const ctx: AdminHandlerContext<AdminOperationId> = {
        operationId,
        query: queryOf(req, res) as never,
        path: path as never,
        body: bodyOf(req, res),
        caller: getWorkspaceCaller(res),
        store: deps.store,
        cursors: deps.cursors,
        now,
        // The lookups made first are remembered for this request, so the handler's own check makes none.
        services: lookUp ? { ...services, resolveHost: rememberingResolver(services.resolveHost ?? systemResolver) } : services,
        audit: trail,
      };
      const first = lookUp && (() => lookUp(ctx));
      const result = await runIdempotently(req, res, { store: deps.store, now, operation, path, first }, async () => {
        const answer = await handler(ctx);
        // In the write's own transaction: the change and its entries commit together, or neither.
        if (writes) await recordAudit(deps.store, auditEntriesOf(operation, path, answer.body, trail, req, res), now);
        return answer;
      });
      sendResult(res, result);
    };
  }
  const { backend, operations } = await loadedBackends(document);
  const unknown = Object.keys(routed).filter((operationId) => !operations.has(operationId));
  if (unknown.length > 0) throw new Error(`the contract has no operation ${unknown.join(', ')} for its handler`);
  // What the audit log records of an administration operation is its `x-audit` (compiled with the
  // matcher, which refuses a malformed one): one without it stops the start-up, not its first write.
  const unaudited = Object.keys(deps.admin.handlers).filter((operationId) => (operations.get(operationId) as { 'x-audit'?: unknown } | undefined)?.['x-audit'] === undefined);
  if (unaudited.length > 0) throw new Error(`the administration operation ${unaudited.join(', ')} states no x-audit, so the audit log could not record it`);
  return (req: Request, res: Response, next: NextFunction): void => {
    const match = matchedOperation(res);
    const operationId = match?.operation.operationId ?? '';
    const operation = operations.get(operationId);
    const handler = Object.hasOwn(backend.handlers, operationId) ? backend.handlers[operationId] : undefined;
    if (!match || !operation || !handler) {
      next(new Error(`no handler is registered for the operation ${operationId || '(none)'}`));
      return;
    }
    Promise.resolve(handler(contextFor(backend, operation, match, req), routed, req, res)).catch(next);
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
