import { onTestFinished } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import pino from 'pino';
import { createApp, type AppDeps } from '../../src/app.js';
import { openDatabase } from '../../src/store/database.js';
import { createStore, type Store } from '../../src/store/index.js';

export interface TestServer {
  url: string;
  store: Store;
  /** Every log line written so far, parsed. */
  logLines: () => string[];
  close: () => Promise<void>;
}

/** A real SQLite file in a fresh temp folder; removed by `cleanup`. */
export function createTestStore(): { store: Store; file: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-test-'));
  const file = path.join(dir, 'test.db');
  const store = createStore(openDatabase(file));
  return {
    store,
    file,
    cleanup: () => {
      if (store.db.open) store.db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh database for the running test, removed when that test finishes. Call it inside a test:
 * the cleanup is registered on the test itself, never at import time.
 */
export function testStoreForThisTest(): { store: Store; file: string } {
  const { store, file, cleanup } = createTestStore();
  onTestFinished(cleanup);
  return { store, file };
}

/**
 * The app on a real HTTP server on an ephemeral loopback port, over a real SQLite file, with every
 * response validated against the contract (a drift becomes a 500 and fails the test). `wrap` puts
 * the app inside another one (tests that bend the real app's answers out of the contract).
 */
export async function startTestServer(options: Partial<AppDeps> & { store?: Store; wrap?: (app: Express) => Express } = {}): Promise<TestServer> {
  const { wrap, ...overrides } = options;
  const owned = overrides.store ? undefined : createTestStore();
  const store = overrides.store ?? owned!.store;
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(line);
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const app = await createApp({
    store,
    logger,
    validateResponses: true,
    // Every test request comes from 127.0.0.1, so the per-address budget for failed keys would be
    // shared by a whole file's 401 tests; tests of that limiter pass their own `rateLimit`.
    rateLimit: { quota: 120, windowSeconds: 60, authFailureQuota: 100_000 },
    ...overrides,
  });
  const served = wrap ? wrap(app) : app;
  const server = await new Promise<Server>((resolve) => {
    const s = served.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    logLines: () => lines,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          owned?.cleanup();
          resolve();
        });
      }),
  };
}

/** `startTestServer` for the running test only: closed (and its database removed) when that test finishes. */
export async function startTestServerForThisTest(overrides: Partial<AppDeps> & { store?: Store } = {}): Promise<TestServer> {
  const server = await startTestServer(overrides);
  onTestFinished(() => server.close());
  return server;
}
