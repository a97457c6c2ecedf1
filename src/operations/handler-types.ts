// Handler types derived from the generated contract, so that a missing handler, a wrong status or
// a body that does not match the schema fails `npm run typecheck`.
import type { components, operations } from '../../generated/openapi.js';
import type { OperationCredentials } from '../../generated/operation-credentials.js';
import type { OperationBodyDefaults, OperationDefaults } from '../../generated/operation-defaults.js';
import type { Store } from '../store/index.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { WorkspaceLimits } from '../config.js';
import type { Cursors } from '../pagination/cursor.js';
import type { ApiKeyCaller, MemberCaller, WorkspaceCaller } from '../keys/callers.js';
import type { Resolver } from '../webhooks/ssrf-guard.js';
import type { EventCatalogEntry } from '../webhooks/event-catalog.js';
import type { PendingRequestCounts } from '../workspace/api-request-counter.js';

export type OperationId = keyof operations;

/**
 * The administration API: every operation whose `security` in the contract takes a member token.
 * The read API is every other one; each set has its handler map below, so a handler missing from
 * either fails the type check.
 */
export type AdminOperationId = { [Op in OperationId]: 'member_token' extends OperationCredentials[Op] ? Op : never }[OperationId];

type Responses<Op extends OperationId> = operations[Op]['responses'];
type SuccessStatus = 200 | 201 | 202 | 204;
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : never;

type ParamsOf<Op extends OperationId> = operations[Op]['parameters'];
type DeclaredQueryOf<Op extends OperationId> = ParamsOf<Op> extends { query?: infer Q } ? ([Q] extends [never] ? Record<string, never> : NonNullable<Q>) : Record<string, never>;
/**
 * The query as a handler gets it: a parameter the contract gives a `default:` is always present,
 * since the service fills it in when a request leaves it out (src/http/dispatch.ts).
 */
type QueryOf<Op extends OperationId> = Op extends keyof OperationDefaults
  ? Omit<DeclaredQueryOf<Op>, keyof OperationDefaults[Op]> & { [K in keyof OperationDefaults[Op] & keyof DeclaredQueryOf<Op>]-?: NonNullable<DeclaredQueryOf<Op>[K]> }
  : DeclaredQueryOf<Op>;
type PathOf<Op extends OperationId> = ParamsOf<Op> extends { path?: infer P } ? ([P] extends [never] ? Record<string, never> : NonNullable<P>) : Record<string, never>;

/** One of the documented success responses of the operation, with its exact JSON body. */
type JsonResult<Op extends OperationId> = {
  [S in keyof Responses<Op> & SuccessStatus]: { status: S; body: JsonBody<Responses<Op>[S]> };
}[keyof Responses<Op> & SuccessStatus];

/** A streamed download (exports): its lines, which the dispatcher writes as the client reads them (src/http/write-lines.ts). */
export interface StreamResult {
  status: 200;
  stream: { contentType: string; filename: string; lines: () => AsyncIterable<string> | Iterable<string> };
}

export interface HandlerContext<Op extends OperationId> {
  /** The operation the request was matched to: what a list's cursors are bound to. */
  operationId: Op;
  query: QueryOf<Op>;
  path: PathOf<Op>;
  caller: ApiKeyCaller;
  store: Store;
  /** The API requests counted but not written yet, which the usage adds. */
  requestCounts: PendingRequestCounts;
  /** Signs and checks the cursors of the lists (src/pagination/README.md). */
  cursors: Cursors;
  now: Date;
}

export type OperationHandler<Op extends OperationId> = (ctx: HandlerContext<Op>) => JsonResult<Op> | StreamResult | Promise<JsonResult<Op> | StreamResult>;

/**
 * The read API: every operation that is not an administration one. HEAD has no operation: the GET's
 * handler answers it without the body (src/http/head-requests.ts).
 */
type ReadOperationId = Exclude<OperationId, AdminOperationId>;

export type ReadHandlers = { [Op in ReadOperationId]: OperationHandler<Op> };

/** The JSON request body of an operation, as validated; `undefined` where it has none or it is optional and absent. */
type DeclaredBodyOf<Op extends OperationId> = operations[Op] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : undefined;
/**
 * The body as a handler gets it: a property the contract gives a `default:` is always present, and
 * so is the body, since the service fills them in when a request leaves them out (src/http/dispatch.ts).
 */
type BodyOf<Op extends OperationId> = Op extends keyof OperationBodyDefaults
  ? Omit<NonNullable<DeclaredBodyOf<Op>>, keyof OperationBodyDefaults[Op]> & { [K in keyof OperationBodyDefaults[Op] & keyof NonNullable<DeclaredBodyOf<Op>>]-?: Exclude<NonNullable<DeclaredBodyOf<Op>>[K], undefined> }
  : DeclaredBodyOf<Op>;

/** Member tokens everywhere; the operations whose `security` also takes an API key get either caller. */
type AdminCallerOf<Op extends AdminOperationId> = 'api_key' extends OperationCredentials[Op] ? WorkspaceCaller : MemberCaller;

/** What the administration handlers need beyond the store: settled once, when the app is built. */
export interface AdminServices {
  /** The event catalog, derived from the AsyncAPI document. */
  eventCatalog: readonly EventCatalogEntry[];
  /** Lets webhook URLs target loopback and private addresses (local development and tests). */
  allowPrivateWebhookTargets: boolean;
  /** Name resolution for the webhook URL check; the system resolver when absent. */
  resolveHost?: Resolver;
  /** Deadline of a test delivery, the same as a real attempt's (`WEBHOOK_TIMEOUT_MS`). */
  webhookTimeoutMs: number;
  /** How many active API keys and webhooks a workspace may hold. */
  limits: WorkspaceLimits;
  /** The API requests counted but not written yet, which the usage per day adds. */
  requestCounts: PendingRequestCounts;
  /** The workspace's rate limit as it stands, without spending any of it. */
  rateLimitHeadroom: (workspaceId: string, now: Date) => Promise<RateLimitHeadroom>;
}

type RateLimitHeadroom = components['schemas']['RateLimitHeadroom'];

export interface AdminHandlerContext<Op extends AdminOperationId> {
  /** The operation the request was matched to: what a list's cursors are bound to. */
  operationId: Op;
  query: QueryOf<Op>;
  path: PathOf<Op>;
  body: BodyOf<Op>;
  caller: AdminCallerOf<Op>;
  store: Store;
  cursors: Cursors;
  now: Date;
  services: AdminServices;
  /** Where a write notes the objects it reached in cascade, each recorded as an audit entry of its own. */
  audit: AuditTrail;
}

export type AdminOperationHandler<Op extends AdminOperationId> = (ctx: AdminHandlerContext<Op>) => JsonResult<Op> | Promise<JsonResult<Op>>;

export type AdminHandlers = { [Op in AdminOperationId]: AdminOperationHandler<Op> };

/**
 * What an administration write looks up on the network (a webhook URL's host names), run before
 * its unit of work opens (src/http/dispatch.ts): no transaction and no pooled connection is held
 * while a name server takes its time. The handler's own check then answers from those lookups,
 * which `services.resolveHost` remembers for the request.
 */
export type AdminLookupsFirst = { [Op in AdminOperationId]?: (ctx: AdminHandlerContext<Op>) => Promise<unknown> };
