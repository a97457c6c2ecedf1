import express, { Router, type Express } from 'express';
import type { Logger } from 'pino';
import { Codes } from './errors/codes.js';
import { sendEnvelope } from './http/envelope.js';
import { errorHandler } from './http/error-handler.js';
import { DependencyOutages } from './http/dependency-outages.js';
import { requestLogger } from './http/request-logger.js';
import { authenticateApiKey } from './http/guards/authenticate.js';
import { refuseAmbiguousCredentials } from './http/guards/ambiguous-credential-guard.js';
import { limitPerWorkspace } from './http/guards/workspace-rate-limit.js';
import { requireOperationScopes } from './http/guards/scope-guard.js';
import { requireActiveSubscription } from './http/guards/subscription-guard.js';
import { validateAgainstContract } from './http/validation/request-validator.js';
import { lowerCaseUuidsInUrl } from './http/uuid-case.js';
import { createDispatcher } from './http/dispatch.js';
import { countApiRequests } from './http/count-api-requests.js';
import { SlidingLogLimiter } from './http/rate-limit/sliding-log-limiter.js';
import { headroomOf, type RateLimiter } from './http/rate-limit/rate-limiter.js';
import { handlers as defaultHandlers } from './http/read-handlers.js';
import type { AdminHandlers, ReadHandlers } from './operations/handler-types.js';
import type { Store } from './store/index.js';
import { bundledContract } from '@workspace-read-api/contract/documents.js';
import { answerReadiness, closeConnectionsWhileDraining, databaseCheck, Readiness } from './http/readiness.js';
import type { ServiceMetrics } from './http/metrics/service-metrics.js';
import { measureRequests } from './http/metrics/measure-requests.js';
import { countedLimiter } from './http/metrics/counted-limiter.js';
import { docsRouter } from './http/docs.js';
import { adminGuard } from './http/guards/admin-guard.js';
import { compileOperations } from '@workspace-read-api/contract/contract-operations.js';
import { perContract } from '@workspace-read-api/contract/per-contract.js';
import { OperationMatcher } from '@workspace-read-api/contract/operation-matcher.js';
import { matchRoute, requireOperation } from './http/route-match.js';
import { adminHandlers } from './http/admin-handlers.js';
import { webhookLookupsFirst } from './handlers/webhooks.js';
import { eventCatalogFrom } from './webhooks/event-catalog.js';
import type { Resolver } from './webhooks/ssrf-guard.js';
import { DEFAULT_CONSOLE_TIMEOUTS, DEFAULT_WEBHOOK_TIMEOUT_MS, DEFAULT_WORKSPACE_LIMITS, type ConsoleConfig, type WorkspaceLimits } from './config.js';
import type { HttpConfig } from './config.js';
import { compressResponses } from './http/compress-responses.js';
import { forbidContentSniffing } from './http/content-type-options.js';
import { answerHeadLikeGet } from './http/head-requests.js';
import { conditionalDownloads, conditionalJsonReads } from './http/conditional-get.js';
import { allowBrowserOrigins } from './http/cors-policy.js';
import { servePublishedContract } from './http/published-contract.js';
import { createBackgroundWriters, type BackgroundWriters } from './http/background-writers.js';
import { exceptUnder, series, under } from './http/series.js';
import { Cursors } from './pagination/cursor.js';
import { consoleRouter } from './console/console-router.js';
import { bodyDefaultsOf } from './console/console-context.js';
import { createExpressServer } from './http/express-server.js';
import type { Server } from 'node:http';
import { storedCursorSecret } from './pagination/cursor-secret.js';

export interface AppDeps {
  store: Store;
  logger: Logger;
  now?: () => Date;
  /** Per-workspace limiter; defaults to 120 per rolling 60 s in process. */
  limiter?: RateLimiter;
  /** Per-client-address limiter for failed authentications. */
  clientLimiter?: RateLimiter;
  rateLimit?: { quota: number; windowSeconds: number; authFailureQuota: number };
  /** Validate every response against the contract (tests): a mismatch becomes a 500. */
  validateResponses?: boolean;
  handlers?: ReadHandlers;
  /** The administration handlers; replaced only by tests that need every handler to fail. */
  adminHandlers?: AdminHandlers;
  /** Lets webhook URLs target loopback and private addresses (WEBHOOK_ALLOW_PRIVATE; development and tests). */
  allowPrivateWebhookTargets?: boolean;
  /** Active API keys and webhooks per workspace (MAX_ACTIVE_API_KEYS, MAX_WEBHOOKS); 100 and 20 by default. */
  workspaceLimits?: WorkspaceLimits;
  /** Name resolution for the webhook URL check at save time (tests); the system resolver by default. */
  resolveWebhookHost?: Resolver;
  /** Deadline of a test delivery (WEBHOOK_TIMEOUT_MS); 15 s by default. */
  webhookTimeoutMs?: number;
  /**
   * The bundled OpenAPI document the guards, the validator and the dispatcher are built from, and
   * that /openapi.json serves; `generated/openapi.json` by default (tests pass a changed copy).
   */
  document?: object;
  /** CORS origins and the public address (docs/client-teams.md, "HTTP conventions"); none and the request's host by default. */
  http?: Partial<HttpConfig>;
  /** What `/readyz` checks, and whether the instance is shutting down; the database alone by default. */
  readiness?: Readiness;
  /** Request and rate limit series for `/metrics` (served by src/server.ts on its own port); none by default. */
  metrics?: ServiceMetrics;
  /**
   * The key cursors are signed with (`CURSOR_SECRET`), the same on every instance; without it, the
   * secret the database holds, which the first app to start over that database generates.
   */
  cursorSecret?: string | undefined;
  /**
   * Where key uses and request counts wait to be written; the process passes its own so it can
   * finish them on shutdown. The app makes its own when absent.
   */
  writers?: BackgroundWriters;
  /** The owners' console's session timeouts (CONSOLE_IDLE_TIMEOUT, CONSOLE_SESSION_LIFETIME); 30 minutes and 12 hours by default. */
  console?: ConsoleConfig;
}

/**
 * The contract's operations compiled for the matcher and the guards, once per contract in a process
 * (packages/contract/src/per-contract.ts): the matcher is never changed once built.
 */
const operationsOf = perContract((document) => compileOperations(document));
const matcherFor = perContract((document) => new OperationMatcher(operationsOf(document)));

/** Builds the Express app; never listens (see server.ts). */
export async function createApp(deps: AppDeps): Promise<Express> {
  const now = deps.now ?? (() => new Date());
  const rate = deps.rateLimit ?? { quota: 120, windowSeconds: 60, authFailureQuota: 30 };
  const counted = (l: RateLimiter, policy: string): RateLimiter => (deps.metrics ? countedLimiter(l, policy, deps.metrics) : l);
  const limiter = counted(deps.limiter ?? new SlidingLogLimiter({ policy: 'workspace', quota: rate.quota, windowSeconds: rate.windowSeconds }), 'workspace');
  const clientLimiter = counted(deps.clientLimiter
    ?? new SlidingLogLimiter({ policy: 'client', quota: rate.authFailureQuota, windowSeconds: rate.windowSeconds }), 'client');
  const document = deps.document ?? bundledContract.openApi();
  const writers = deps.writers ?? createBackgroundWriters(deps.store);
  // Compiled before anything listens: a contract the guards cannot enforce stops the start-up.
  const matcher = matcherFor(document);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Mount paths (`/api/v1`) compare like the contract's paths: exactly, letter case included.
  app.set('case sensitive routing', true);
  // Forwarded headers name the client (req.ip, req.protocol, req.host) only from these proxies.
  app.set('trust proxy', deps.http?.trustProxy ?? false);

  // The pipeline is one Express layer: a series of steps (series.ts), some of them series of their
  // own, and steps for one API are put `under` its path rather than mounted: Express's own work
  // per layer and per mount is a large part of a request's cost (bench/README.md, "The stack's cost").
  const readiness = deps.readiness ?? new Readiness([databaseCheck(deps.store)]);
  const database = databaseCheck(deps.store);
  const outages = new DependencyOutages(deps.logger, [database]);
  const corsOrigins = deps.http?.corsAllowedOrigins ?? [];
  const reception = series(
    ...(deps.metrics ? [measureRequests(deps.metrics)] : []),
    requestLogger(deps.logger),
    forbidContentSniffing(),
    lowerCaseUuidsInUrl(document),
    compressResponses(),
    closeConnectionsWhileDraining(readiness),
    under('/api', series(answerHeadLikeGet(), conditionalJsonReads())),
    ...(corsOrigins.length > 0 ? [under('/api/v1', allowBrowserOrigins(corsOrigins))] : []),
  );
  // The routes outside the two APIs, in a router of their own that requests under /api never
  // enter (matching the app's letter-case rule; the docs router keeps its own).
  const outsideApi = Router({ caseSensitive: true });
  outsideApi.get('/healthz', (_req, res) => sendEnvelope(res, 200, Codes.OK, 'OK', { status: 'ok' }));
  outsideApi.get('/readyz', answerReadiness(readiness, (name, err) => outages.noticed(name, err)));
  outsideApi.get('/openapi.json', servePublishedContract(document, deps.http?.publicBaseUrl));
  // Earlier majors stay published at their version's address (`/openapi/1.2.0.json`, CHANGELOG.md).
  for (const [version, superseded] of bundledContract.superseded()) {
    outsideApi.get(`/openapi/${version}.json`, servePublishedContract(superseded, deps.http?.publicBaseUrl));
  }
  const asyncApiDocument = bundledContract.asyncApi();
  outsideApi.get('/asyncapi.json', (_req, res) => {
    res.json(asyncApiDocument);
  });
  outsideApi.use(docsRouter(document, asyncApiDocument));
  // The console calls the administration API through this app, in process, over a server object
  // that never listens (src/http/in-process-request.ts).
  let inProcessServer: Server | undefined;
  const consoleTimeouts = deps.console ?? DEFAULT_CONSOLE_TIMEOUTS;
  outsideApi.use(consoleRouter({
    store: deps.store, logger: deps.logger, now, clientLimiter, timeouts: consoleTimeouts,
    server: () => (inProcessServer ??= createExpressServer(app)),
    bodyDefault: bodyDefaultsOf(operationsOf(document)),
  }));
  const outsideApis = exceptUnder('/api', outsideApi);

  const eventCatalog = eventCatalogFrom(asyncApiDocument);
  const recordKeyUse = (keyId: string, at: Date): void => writers.keyUses.record(keyId, at);
  const dispatch = await createDispatcher(document, deps.handlers ?? defaultHandlers, {
    store: deps.store,
    requestCounts: writers.requestCounts,
    cursors: new Cursors(deps.cursorSecret ?? await storedCursorSecret(deps.store, now())),
    now,
    admin: {
      handlers: deps.adminHandlers ?? adminHandlers,
      lookupsFirst: webhookLookupsFirst,
      services: {
        eventCatalog,
        allowPrivateWebhookTargets: deps.allowPrivateWebhookTargets ?? false,
        limits: deps.workspaceLimits ?? DEFAULT_WORKSPACE_LIMITS,
        resolveHost: deps.resolveWebhookHost,
        webhookTimeoutMs: deps.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
        requestCounts: writers.requestCounts,
        rateLimitHeadroom: async (workspaceId, at) => headroomOf(await limiter.peek(workspaceId, at.getTime())),
      },
    },
  });
  const guards = series(
    under(['/api/v1', '/api/workspace'], refuseAmbiguousCredentials({ clientLimiter, now })),
    // The one route match of each request; everything after it reads it from the request context.
    matchRoute(matcher),
    under('/api/v1', series(
      authenticateApiKey({ store: deps.store, clientLimiter, now, recordUse: recordKeyUse }),
      limitPerWorkspace({ limiter, now }),
      countApiRequests({ counter: writers.requestCounts, now }),
      requireOperationScopes(),
      requireActiveSubscription(),
    )),
    under('/api/workspace', series(...adminGuard({ store: deps.store, limiter, clientLimiter, now, recordKeyUse, consoleTimeouts }))),
  );
  // A series of its own: an error of the guards above skips it whole, error-handling steps included
  // (a series is a step of three parameters, which an error passes by).
  const answer = series(
    requireOperation(),
    ...validateAgainstContract(document, { validateResponses: deps.validateResponses ?? false }),
    conditionalDownloads({ document, store: deps.store, now }),
    dispatch,
  );
  app.use(series(reception, outsideApis, guards, answer, errorHandler((err) => outages.noticed(database.name, err))));
  return app;
}
