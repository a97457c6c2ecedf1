// The only reader of process.env: everything else receives configuration as arguments.
import path from 'node:path';

export interface Config {
  databasePath: string;
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
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    databasePath: env.DATABASE_PATH || path.join('data', 'workspace.db'),
    port: intFrom(env.PORT, 3000, 'PORT'),
    host: env.HOST || '127.0.0.1',
    logLevel: env.LOG_LEVEL || 'info',
    logFile: env.LOG_FILE || undefined,
    rateLimitQuota: intFrom(env.RATE_LIMIT_QUOTA, 120, 'RATE_LIMIT_QUOTA'),
    rateLimitWindowSeconds: intFrom(env.RATE_LIMIT_WINDOW_SECONDS, 60, 'RATE_LIMIT_WINDOW_SECONDS'),
    authFailureQuota: intFrom(env.AUTH_FAILURE_QUOTA, 30, 'AUTH_FAILURE_QUOTA'),
  };
}
