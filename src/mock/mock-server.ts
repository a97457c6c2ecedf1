import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Logger } from 'pino';
import { createApp } from '../app.js';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { createApiKey } from '../keys/api-keys.js';
import { openSqliteStore } from '../store/index.js';
import { exampleHandlers, readPreferHeader } from './example-handlers.js';

export interface MockServer {
  url: string;
  /** An API key the mock accepts (all scopes); any other key gets the service's own 401. */
  key: string;
  close: () => Promise<void>;
}

/**
 * The read API answered from the contract's examples, for building a client before a key exists.
 * It is the service itself (same authentication, rate limit, validation, envelope and error codes)
 * over an in-memory database holding one workspace and one key, with every read handler replaced
 * by one that answers the operation's documented example. `Prefer: code=404` (or any documented
 * status) and `Prefer: example=<name>` pick another documented answer.
 */
export async function startMockServer(options: {
  port?: number;
  host?: string;
  logger: Logger;
  /** Origins whose browser pages may call the mock (CORS_ALLOWED_ORIGINS), as for the service. */
  corsAllowedOrigins?: string[];
}): Promise<MockServer> {
  const store = openSqliteStore(':memory:', { serving: true });
  const now = new Date().toISOString();
  const workspaceId = randomUUID();
  const userId = randomUUID();
  await store.accounts.insertWorkspaceWithOwner(
    { id: workspaceId, name: 'Mock workspace', subscription_status: 'active', created_at: now },
    { id: userId, email: 'owner@mock.example', name: 'Mock Owner', created_at: now },
    now,
  );
  const { key } = await createApiKey(store, { workspaceId, userId, name: 'Mock key' });

  const service = await createApp({
    store,
    logger: options.logger,
    handlers: exampleHandlers(loadOpenApiDocument()),
    http: { corsAllowedOrigins: options.corsAllowedOrigins ?? [] },
  });
  const app = express();
  app.disable('x-powered-by');
  app.use(readPreferHeader, service);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    key,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        void store.close().then(resolve);
      });
    }),
  };
}
