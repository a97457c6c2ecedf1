// The only reader of process.env: everything else receives configuration as arguments.
import { isIP } from 'node:net';
import path from 'node:path';
import { parseDecimalInteger } from './text/decimal-integer.js';

export interface Config {
  /** The SQLite file (`DATABASE_PATH`). */
  databasePath: string;
  /**
   * Where the data lives, for `parseStoreAddress` (`src/store/store-address.ts`): `DATABASE_URL`
   * (`postgres://…`) when set, which wins over `DATABASE_PATH`, else the SQLite file.
   */
  databaseAddress: string;
  /** The connections each instance keeps to PostgreSQL (docs/operators.md, "Configuration"). */
  databasePool: DatabasePoolConfig;
  port: number;
  host: string;
  logLevel: string;
  /** File to append JSON log lines to; stdout when unset. */
  logFile: string | undefined;
  /** Requests per window per workspace (raised by the benchmark). */
  rateLimitQuota: number;
  rateLimitWindowSeconds: number;
  /** Failed authentications per window per client address. */
  authFailureQuota: number;
  /** Webhook delivery (see src/webhooks/delivery/README.md). */
  webhooks: WebhookDeliveryConfig;
  /** Limits of the HTTP server's connections and the HTTP conventions (docs/operators.md, "Configuration"; docs/client-teams.md, "HTTP conventions"). */
  http: HttpServerConfig & HttpConfig;
  /** The shared rate limit of several instances (docs/operators.md, "Running several instances"). */
  redis: RedisConfig;
  /** `GET /metrics` on a port of its own; off (no port) by default. */
  metrics: { port: number | undefined; host: string };
}

export interface DatabasePoolConfig {
  /** `DATABASE_POOL_MAX`: connections at most per instance; instances × this must stay under the server's `max_connections`. */
  max: number;
  /** `DATABASE_POOL_IDLE_TIMEOUT_MS`: a connection idle this long is closed (0: never). */
  idleTimeoutMs: number;
  /** `DATABASE_POOL_CONNECT_TIMEOUT_MS`: a statement waits this long for a connection before it answers 503. */
  connectTimeoutMs: number;
}

export interface RedisConfig {
  /** `REDIS_URL`: with it, the rate limits live in Redis and hold across instances; in process without it. */
  url: string | undefined;
  /** Prepended to every key the service writes, so several services can share one Redis. */
  keyPrefix: string;
  /** A command that has not answered in this time fails, and the request answers 503. */
  commandTimeoutMs: number;
}

export interface HttpServerConfig {
  /**
   * The request line and headers must have arrived this long after a request starts; a new
   * connection that sends nothing is closed after it too.
   */
  headersTimeoutMs: number;
  /** The whole request, body included, must have arrived this long after it starts. */
  requestTimeoutMs: number;
  /** How long a keep-alive connection may sit idle between two requests. */
  keepAliveTimeoutMs: number;
  /** Open connections in the whole process, whoever opens them; a connection beyond it is closed at once. */
  maxConnections: number;
  /**
   * On SIGTERM, how long `/readyz` answers 503 before the port closes, so a load balancer probing
   * it stops sending first; in-flight requests then finish whatever this is.
   */
  drainDelayMs: number;
}

export interface HttpConfig {
  /** Origins whose browser pages may call the read API (CORS); none by default. */
  corsAllowedOrigins: string[];
  /** The address clients use, named by `/openapi.json`; the request's own host when unset. */
  publicBaseUrl: string | undefined;
  /**
   * The proxies whose `X-Forwarded-For`, `-Host` and `-Proto` are believed, as Express's `trust
   * proxy` setting takes them: false (none, the default), a number of hops, or addresses, CIDRs
   * and the names `loopback`, `linklocal`, `uniquelocal`.
   */
  trustProxy: TrustProxy;
}

export type TrustProxy = false | number | string[];

export interface WebhookDeliveryConfig {
  /** Development/test switch: lets webhook URLs resolve to loopback and private addresses. */
  allowPrivate: boolean;
  /** Whole-attempt deadline (name resolution, connect, response). */
  timeoutMs: number;
  /** Waits between attempts; a delivery gets `retryScheduleMs.length + 1` attempts. */
  retryScheduleMs: number[];
  /** How often the dispatcher looks for due deliveries when it has nothing in flight. */
  pollIntervalMs: number;
  /** How long a claimed delivery stays reserved; a lease that expires (the process died) is claimed again. */
  leaseMs: number;
  /** Concurrent attempts per webhook, so one slow receiver cannot take every slot. */
  perWebhookConcurrency: number;
  /** Concurrent attempts in the whole process. */
  maxConcurrency: number;
  /** Consecutive failed deliveries after which a webhook is disabled. */
  disableAfterFailures: number;
  /** How long `stop()` lets in-flight attempts finish before abandoning them to lease expiry. */
  shutdownGraceMs: number;
}

/** A receiver that has not answered in this time has failed the attempt (`WEBHOOK_TIMEOUT_MS`). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 15_000;

// The first retries come 10 s and 1 min after a failure, as receivers of the product expect, then
// the long tail: 11 attempts over about 3.9 days, more than three days even with the largest
// downward jitter (-20%): test/unit/webhooks/retry-schedule.test.ts.
export const DEFAULT_RETRY_SCHEDULE = '10s,1m,5m,30m,2h,6h,12h,24h,24h,24h';
const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `"1m,5m,2h"` or `"50ms,100ms"` → milliseconds; a bare number is milliseconds. */
export function parseDurationList(value: string, name: string): number[] {
  const parts = value.split(',').map((p) => p.trim());
  const out = parts.map((part) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(part);
    if (!match) throw new Error(`${name} must be a comma-separated list of durations like 1m,5m,2h or 50ms, got "${value}"`);
    return Math.round(Number(match[1]) * (DURATION_UNITS_MS[match[2] ?? 'ms'] ?? 1));
  });
  if (out.length === 0) throw new Error(`${name} must list at least one duration`);
  return out;
}

function boolFrom(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  throw new Error(`${name} must be true or false, got "${value}"`);
}

function positiveIntFrom(value: string | undefined, fallback: number, name: string): number {
  const n = intFrom(value, fallback, name);
  if (n < 1) throw new Error(`${name} must be at least 1, got "${value}"`);
  return n;
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = parseDecimalInteger(value);
  if (n === undefined) throw new Error(`${name} must be a non-negative integer in decimal digits, got "${value}"`);
  return n;
}

function httpServerConfig(env: NodeJS.ProcessEnv): HttpServerConfig {
  const config = {
    headersTimeoutMs: positiveIntFrom(env.HTTP_HEADERS_TIMEOUT_MS, 10_000, 'HTTP_HEADERS_TIMEOUT_MS'),
    requestTimeoutMs: positiveIntFrom(env.HTTP_REQUEST_TIMEOUT_MS, 30_000, 'HTTP_REQUEST_TIMEOUT_MS'),
    keepAliveTimeoutMs: positiveIntFrom(env.HTTP_KEEP_ALIVE_TIMEOUT_MS, 5_000, 'HTTP_KEEP_ALIVE_TIMEOUT_MS'),
    maxConnections: positiveIntFrom(env.HTTP_MAX_CONNECTIONS, 10_000, 'HTTP_MAX_CONNECTIONS'),
    drainDelayMs: intFrom(env.DRAIN_DELAY_MS, 0, 'DRAIN_DELAY_MS'),
  };
  // The headers are part of the request: a longer headers timeout would never apply.
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new Error(`HTTP_HEADERS_TIMEOUT_MS (${config.headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${config.requestTimeoutMs})`);
  }
  return config;
}

/** The URL, or undefined when `value` is not one. */
function urlOrUndefined(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** `https://app.example.com,http://localhost:5173` → each exactly as a browser sends `Origin`. */
function parseOrigins(value: string | undefined, name: string): string[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(',').map((part) => part.trim()).filter((part) => part !== '').map((origin) => {
    const parsed = urlOrUndefined(origin);
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new Error(`${name} must list origins like https://app.example.com (scheme, host and port only), got "${origin}"`);
    }
    return origin;
  });
}

function baseUrlFrom(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = urlOrUndefined(value.trim());
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search !== '' || parsed.hash !== '') {
    throw new Error(`${name} must be an http(s) URL such as https://api.example.com, got "${value}"`);
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of TRUST_PROXY's list: a name, an address, or an address with a prefix length or netmask. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', mask, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (mask === undefined) return true;
  if (/^\d{1,3}$/.test(mask)) return Number(mask) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(mask) === 4;
}

function trustProxyFrom(value: string | undefined, name: string): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  // Believing every sender would let any client choose the address its failed keys count against.
  if (text === 'true') throw new Error(`${name}=true would believe forwarded headers from anyone: give the number of proxies in front of the service (1) or their addresses`);
  if (/^\d+$/.test(text)) {
    const hops = parseDecimalInteger(text);
    if (hops === undefined) throw new Error(`${name} must be a number of proxies in decimal digits, got "${value}"`);
    return hops === 0 ? false : hops;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isProxyEntry(entry));
  if (bad.length > 0) {
    throw new Error(`${name} must be a number of proxies, or addresses, CIDRs (10.0.0.0/8) and loopback, linklocal, uniquelocal separated by commas; "${bad.join('", "')}" is none of these`);
  }
  return entries;
}

function redisUrlFrom(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = urlOrUndefined(value.trim());
  if (!parsed || !/^rediss?:$/.test(parsed.protocol) || parsed.hostname === '') {
    // The value is not repeated: it may carry a password.
    throw new Error(`${name} must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379/0`);
  }
  return value.trim();
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databasePath = env.DATABASE_PATH || path.join('data', 'workspace.db');
  const host = env.HOST || '127.0.0.1';
  return {
    databasePath,
    databaseAddress: env.DATABASE_URL?.trim() || databasePath,
    databasePool: {
      max: positiveIntFrom(env.DATABASE_POOL_MAX, 10, 'DATABASE_POOL_MAX'),
      idleTimeoutMs: intFrom(env.DATABASE_POOL_IDLE_TIMEOUT_MS, 10_000, 'DATABASE_POOL_IDLE_TIMEOUT_MS'),
      connectTimeoutMs: positiveIntFrom(env.DATABASE_POOL_CONNECT_TIMEOUT_MS, 5_000, 'DATABASE_POOL_CONNECT_TIMEOUT_MS'),
    },
    port: intFrom(env.PORT, 3000, 'PORT'),
    host,
    logLevel: env.LOG_LEVEL || 'info',
    logFile: env.LOG_FILE || undefined,
    rateLimitQuota: intFrom(env.RATE_LIMIT_QUOTA, 120, 'RATE_LIMIT_QUOTA'),
    rateLimitWindowSeconds: intFrom(env.RATE_LIMIT_WINDOW_SECONDS, 60, 'RATE_LIMIT_WINDOW_SECONDS'),
    authFailureQuota: intFrom(env.AUTH_FAILURE_QUOTA, 30, 'AUTH_FAILURE_QUOTA'),
    webhooks: {
      allowPrivate: boolFrom(env.WEBHOOK_ALLOW_PRIVATE, false, 'WEBHOOK_ALLOW_PRIVATE'),
      timeoutMs: positiveIntFrom(env.WEBHOOK_TIMEOUT_MS, DEFAULT_WEBHOOK_TIMEOUT_MS, 'WEBHOOK_TIMEOUT_MS'),
      retryScheduleMs: parseDurationList(env.WEBHOOK_RETRY_SCHEDULE || DEFAULT_RETRY_SCHEDULE, 'WEBHOOK_RETRY_SCHEDULE'),
      pollIntervalMs: positiveIntFrom(env.WEBHOOK_POLL_INTERVAL_MS, 100, 'WEBHOOK_POLL_INTERVAL_MS'),
      leaseMs: positiveIntFrom(env.WEBHOOK_LEASE_MS, 60_000, 'WEBHOOK_LEASE_MS'),
      perWebhookConcurrency: positiveIntFrom(env.WEBHOOK_PER_WEBHOOK_CONCURRENCY, 8, 'WEBHOOK_PER_WEBHOOK_CONCURRENCY'),
      maxConcurrency: positiveIntFrom(env.WEBHOOK_MAX_CONCURRENCY, 256, 'WEBHOOK_MAX_CONCURRENCY'),
      disableAfterFailures: positiveIntFrom(env.WEBHOOK_DISABLE_AFTER_FAILURES, 10, 'WEBHOOK_DISABLE_AFTER_FAILURES'),
      shutdownGraceMs: intFrom(env.WEBHOOK_SHUTDOWN_GRACE_MS, 3_000, 'WEBHOOK_SHUTDOWN_GRACE_MS'),
    },
    http: {
      ...httpServerConfig(env),
      corsAllowedOrigins: parseOrigins(env.CORS_ALLOWED_ORIGINS, 'CORS_ALLOWED_ORIGINS'),
      publicBaseUrl: baseUrlFrom(env.PUBLIC_BASE_URL, 'PUBLIC_BASE_URL'),
      trustProxy: trustProxyFrom(env.TRUST_PROXY, 'TRUST_PROXY'),
    },
    redis: {
      url: redisUrlFrom(env.REDIS_URL, 'REDIS_URL'),
      keyPrefix: env.REDIS_KEY_PREFIX ?? 'wsapi:ratelimit:',
      commandTimeoutMs: positiveIntFrom(env.REDIS_COMMAND_TIMEOUT_MS, 250, 'REDIS_COMMAND_TIMEOUT_MS'),
    },
    metrics: {
      // 0 takes a free port (tests); unset or empty: no metrics at all.
      port: env.METRICS_PORT ? intFrom(env.METRICS_PORT, 0, 'METRICS_PORT') : undefined,
      host: env.METRICS_HOST || host,
    },
  };
}
