import { afterAll, beforeAll, expect, onTestFinished } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import pino from 'pino';
import { createApp, type AppDeps } from '../../src/app.js';
import { createBackgroundWriters, type BackgroundWriters } from '../../src/http/background-writers.js';
import { createExpressServer } from '../../src/http/express-server.js';
import { openSqliteStore, openStore, type Store } from '../../src/store/index.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { createMigratedPostgresDatabase, dropPostgresDatabase } from './postgres.js';
import { onPostgres } from './store-kind.js';

export interface TestServer<S extends Store = Store> {
  url: string;
  /**
   * The server's store: a fresh SQLite file, or in the PostgreSQL run (`onPostgres()`) a fresh
   * PostgreSQL database. `startSqliteTestServer` gives the SQLite store, whose `db` looks into the file.
   */
  store: S;
  /** Where the app keeps key uses and request counts until it writes them. */
  writers: BackgroundWriters;
  /** Every log line written so far, parsed. */
  logLines: () => string[];
  /**
   * The store's address as the command line takes it (`--db`) and the service reads it
   * (`DATABASE_PATH` or `DATABASE_URL`): the SQLite file, or the PostgreSQL database's URL.
   */
  address: string;
  close: () => Promise<void>;
}

/** Where a store's data lives, as `openStore` takes it: the SQLite file, or the PostgreSQL database's URL. */
export function addressOf(store: Store): string {
  return store.kind === 'sqlite'
    ? (store as SqliteStore).db.name
    : (store as PostgresStore).pool.options.connectionString!;
}

/** The bytes of a SQLite file this process migrated, in which nothing else was ever written: see `createSqliteTestStore`. */
let migrated: Buffer | undefined;

/**
 * Migrating a new file runs every migration (about 30 ms of CPU), and a run makes thousands of
 * stores: each process migrates one file, closed (so that the file holds everything, its WAL
 * folded in), keeps its bytes and removes it at once; each store starts as those bytes. Opening
 * the copy still runs `openDatabase`, which finds every migration applied. Nothing waits for the
 * process to exit to be removed: vitest ends its workers without the `exit` event.
 */
function migratedBytes(): Buffer {
  if (migrated === undefined) {
    const dir = mkdtempSync(path.join(tmpdir(), `wsapi-migrated-${process.pid}-`));
    try {
      const file = path.join(dir, 'migrated.db');
      openDatabase(file).close();
      migrated = readFileSync(file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return migrated;
}

/**
 * A real SQLite file in a fresh temp folder, a copy of a freshly migrated one (`migratedBytes`),
 * opened as the server opens it (a write waits 50 ms for a lock another connection holds);
 * removed by `cleanup`. `copyOf` starts it as a copy of another closed file, or of the bytes of
 * one (a workspace with data made once per process: keep its bytes, as `migratedBytes` does, and
 * remove its file at once, since nothing removes a file at the process's exit). For tests about
 * the file itself; the others take `createTestStore`, which runs on both stores.
 */
export function createSqliteTestStore(copyOf?: string | Uint8Array): { store: SqliteStore; file: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-test-'));
  const file = path.join(dir, 'test.db');
  if (copyOf === undefined) writeFileSync(file, migratedBytes());
  else if (typeof copyOf === 'string') copyFileSync(copyOf, file);
  else writeFileSync(file, copyOf);
  const store = openSqliteStore(file, { serving: true });
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
 * A fresh store opened through `openStore`, as the service opens its address: a SQLite file, or
 * in the PostgreSQL run a database of the run's cluster. `cleanup` closes it and removes the file.
 *
 * On PostgreSQL, making a database costs far more than a SQLite file, so the stores of one test
 * file share one database (its tests keep their own workspaces, as every test does), dropped when
 * the worker moves on to the next file. `ownDatabase` gives a database of its own, dropped by
 * `cleanup`: for tests whose code reads every workspace at once (the delivery dispatcher).
 */
export async function createTestStore(options: { ownDatabase?: boolean } = {}): Promise<{ store: Store; cleanup: () => Promise<void> }> {
  if (!onPostgres()) {
    const { store, cleanup } = createSqliteTestStore();
    return { store, cleanup: async () => cleanup() };
  }
  const own = options.ownDatabase === true ? await createMigratedPostgresDatabase('wsapi_test') : undefined;
  const url = own ?? await databaseOfThisFile();
  const store = await openStore(url);
  let closed = false;
  return {
    store,
    cleanup: async () => {
      if (closed) return;
      closed = true;
      await store.close().catch(() => undefined);
      if (own !== undefined) await dropPostgresDatabase(own);
    },
  };
}

/** The database the running test file's stores share (`createTestStore`); the previous file's is dropped. */
let fileDatabase: { file: string; url: Promise<string> } | undefined;

async function databaseOfThisFile(): Promise<string> {
  const file = expect.getState().testPath ?? '';
  if (fileDatabase?.file !== file) {
    const previous = fileDatabase;
    fileDatabase = { file, url: createMigratedPostgresDatabase('wsapi_file') };
    if (previous !== undefined) await dropPostgresDatabase(await previous.url);
  }
  return fileDatabase.url;
}

/**
 * A fresh database for the running test, removed when that test finishes. Call it inside a test:
 * the cleanup is registered on the test itself, never at import time.
 */
export async function testStoreForThisTest(): Promise<{ store: Store }> {
  const { store, cleanup } = await createTestStore();
  onTestFinished(cleanup);
  return { store };
}

/** `testStoreForThisTest` over a SQLite file, for tests about the file itself. */
export function sqliteTestStoreForThisTest(): { store: SqliteStore; file: string } {
  const { store, file, cleanup } = createSqliteTestStore();
  onTestFinished(cleanup);
  return { store, file };
}

/**
 * The app on a real HTTP server on an ephemeral loopback port, over a real SQLite file, with every
 * response validated against the contract (a drift becomes a 500 and fails the test). `wrap` puts
 * the app inside another one (tests that bend the real app's answers out of the contract).
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const owned = options.store ? undefined : await createTestStore();
  return serveStore(options.store ?? owned!.store, options, owned?.cleanup);
}

/** `startTestServer` over a SQLite file (its `store.db` looks into the file), for tests about the file itself. */
export async function startSqliteTestServer(options: TestServerOptions<SqliteStore> = {}): Promise<TestServer<SqliteStore>> {
  const owned = options.store ? undefined : createSqliteTestStore();
  return serveStore(options.store ?? owned!.store, options, owned && (async () => owned.cleanup()));
}

/**
 * A rate limit no test reaches (`rateLimit: NO_RATE_LIMIT`), for files that send more requests than
 * a window allows and test something else: the limiter's own tests set theirs.
 */
export const NO_RATE_LIMIT = { quota: 1_000_000, windowSeconds: 60, authFailureQuota: 1_000_000 } as const;

export type TestServerOptions<S extends Store = Store> = Partial<AppDeps> & { store?: S; wrap?: (app: Express) => Express };

async function serveStore<S extends Store>(store: S, options: TestServerOptions<S>, cleanup: (() => Promise<void>) | undefined): Promise<TestServer<S>> {
  const { wrap, ...overrides } = options;
  const writers = overrides.writers ?? createBackgroundWriters(store);
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(line);
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const stopWriters = (): void => {
    writers.keyUses.stop();
    writers.requestCounts.stop();
  };
  let app: Express;
  try {
    app = await createApp({
      store,
      logger,
      validateResponses: true,
      // Every test request comes from 127.0.0.1, so the per-address budget for failed keys would be
      // shared by a whole file's 401 tests; tests of that limiter pass their own `rateLimit`.
      rateLimit: { quota: 120, windowSeconds: 60, authFailureQuota: 100_000 },
      ...overrides,
      writers,
    });
  } catch (refused) {
    // An app that refuses to start (tests of start-up checks) leaves no timer or database behind.
    stopWriters();
    await cleanup?.();
    throw refused;
  }
  const served = wrap ? wrap(app) : app;
  const server = await new Promise<Server>((resolve) => {
    // Served as src/server.ts serves the app (src/http/express-server.ts).
    const s = createExpressServer(served).listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    writers,
    logLines: () => lines,
    address: addressOf(store),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          stopWriters();
          void (cleanup?.() ?? Promise.resolve()).then(() => resolve(), () => resolve());
        });
      }),
  };
}

/**
 * `startTestServer` for the whole test file, called at its top level (or in a `describe`): started
 * before its tests (and before the file's own `beforeAll` hooks registered after it), closed after
 * them (and after the file's own `afterAll` hooks). What it returns reads through to the server
 * once started; read it inside a test or a hook.
 */
export function useTestServer(options: TestServerOptions = {}): TestServer {
  return useServer(() => startTestServer(options));
}

/** `useTestServer` over a SQLite file (`startSqliteTestServer`), for files about the file itself. */
export function useSqliteTestServer(options: TestServerOptions<SqliteStore> = {}): TestServer<SqliteStore> {
  return useServer(() => startSqliteTestServer(options));
}

function useServer<S extends Store>(start: () => Promise<TestServer<S>>): TestServer<S> {
  let started: TestServer<S> | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as TestServer<S>, {
    get(_, name) {
      if (started === undefined) throw new Error('useTestServer(): the server starts before the file\'s tests; read it inside a test or a hook');
      return Reflect.get(started, name) as unknown;
    },
  });
}

/** `startTestServer` for the running test only: closed (and its database removed) when that test finishes. */
export async function startTestServerForThisTest(options: TestServerOptions = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  onTestFinished(() => server.close());
  return server;
}
