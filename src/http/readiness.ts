import type { Request, RequestHandler } from 'express';
import { Codes } from '../errors/codes.js';
import type { Store } from '../store/index.js';
import { sendEnvelope } from './envelope.js';

/** Something the service cannot answer requests without, named as `/readyz` and `/metrics` name it. */
export interface DependencyCheck {
  name: string;
  /** Resolves when the dependency answers; rejects (soon: each check bounds its own wait) when not. */
  ping: () => Promise<void>;
}

/** A database that takes longer than this to answer `SELECT 1` counts as down: a probe must answer the balancer in time. */
const DATABASE_PING_TIMEOUT_MS = 1_000;

export function databaseCheck(store: Store): DependencyCheck {
  return {
    // The operator's name for it: what to look at when /readyz says it does not answer.
    name: store.kind === 'postgres' ? 'postgresql' : 'database',
    ping: () => new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the database did not answer within ${DATABASE_PING_TIMEOUT_MS} ms`)), DATABASE_PING_TIMEOUT_MS);
      store.ping().then(resolve, reject).finally(() => clearTimeout(timer));
    }),
  };
}

/**
 * Whether this instance should get traffic: every dependency answers and it is not shutting down.
 * `draining` is set first on shutdown (src/server.ts), so a load balancer that probes `/readyz`
 * stops sending before the port closes.
 */
export class Readiness {
  draining = false;

  constructor(readonly dependencies: readonly DependencyCheck[]) {}

  /** Each dependency and whether it answered now, asked all at once. */
  async probe(): Promise<Array<{ name: string; up: boolean; error?: unknown }>> {
    return Promise.all(this.dependencies.map(async ({ name, ping }) => {
      try {
        await ping();
        return { name, up: true };
      } catch (error) {
        return { name, up: false, error };
      }
    }));
  }
}

/** `GET /readyz`: 200 when ready; 503 (5030) naming what is missing. Not ready is an answer, not a failure. */
export function answerReadiness(readiness: Readiness, onDown: (name: string, err: unknown) => void): RequestHandler {
  return async (req: Request, res) => {
    if (readiness.draining) {
      sendEnvelope(res, 503, Codes.UNAVAILABLE, 'Not ready: this instance is shutting down.');
      return;
    }
    const down = (await readiness.probe()).filter((d) => !d.up);
    if (down.length > 0) {
      // Logged once per outage (dependency-outages.ts), not at every probe of the balancer.
      for (const d of down) onDown(d.name, d.error);
      const names = down.map((d) => d.name);
      sendEnvelope(res, 503, Codes.UNAVAILABLE, `Not ready: ${names.join(' and ')} ${names.length > 1 ? 'do' : 'does'} not answer.`);
      return;
    }
    sendEnvelope(res, 200, Codes.OK, 'OK', { status: 'ready' });
  };
}

/**
 * While shutting down, every answer says `Connection: close`, so keep-alive clients (a balancer's
 * pooled connections) open their next request elsewhere instead of on a port about to close.
 */
export function closeConnectionsWhileDraining(readiness: Readiness): RequestHandler {
  return (_req, res, next) => {
    if (readiness.draining) res.set('Connection', 'close');
    next();
  };
}
