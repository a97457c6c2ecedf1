import dgram from 'node:dgram';
import dns from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import type { Resolver } from '../../../src/webhooks/ssrf-guard.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { send } from '../../support/http.js';
import { createMigratedPostgresDatabase, dropPostgresDatabase } from '../../support/postgres.js';
import { onPostgres } from '../../support/store-kind.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { until } from '../../support/wait.js';

// A webhook's URL is checked by resolving its host, and a name server may take seconds or never
// answer. That wait must happen before the write's unit of work opens: while it lasts, no
// transaction (SQLite's write lock, which every other request's store call waits behind) and no
// pooled PostgreSQL connection is held. Here the name server is a real UDP socket on loopback that
// takes every query and answers none, and the service resolves through it.

/** A name server on loopback that receives queries and never answers; `queries` counts them. */
async function silentNameServer(): Promise<{ address: string; queries: () => number; close: () => Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  let received = 0;
  socket.on('message', () => {
    received += 1;
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries: () => received,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/** Each pending lookup resolves to ECANCELLED on `cancel()`, or ETIMEOUT after `timeoutMs` at the latest. */
function resolverThrough(server: string, timeoutMs: number): { resolve: Resolver; cancel: () => void } {
  const resolver = new dns.promises.Resolver({ timeout: timeoutMs, tries: 1 });
  resolver.setServers([server]);
  return { resolve: (hostname) => resolver.resolve4(hostname), cancel: () => resolver.cancel() };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The service over a store whose PostgreSQL pool holds at most `poolMax` connections (on SQLite, the usual file). */
async function serverWithSmallPool(resolve: Resolver, poolMax: number): Promise<TestServer> {
  let store: Store | undefined;
  if (onPostgres()) {
    const url = await createMigratedPostgresDatabase('wsapi_lookups');
    cleanups.push(() => dropPostgresDatabase(url));
    // A request waits at most 2 s for a connection, then answers 503 (5030).
    store = await openStore(url, { pool: { max: poolMax, connectTimeoutMs: 2_000 } });
    cleanups.push(async () => store!.close());
  }
  const server = await startTestServer({ ...(store ? { store } : {}), resolveWebhookHost: resolve });
  cleanups.unshift(() => server.close());
  return server;
}

describe('POST /api/workspace/{workspace_id}/webhooks while the URL\'s name server does not answer', () => {
  it('creations under an Idempotency-Key wait for the lookup outside their unit of work: another workspace\'s reads are served meanwhile, and a pool of 3 is not exhausted by 3 of them', async () => {
    const nameServer = await silentNameServer();
    cleanups.push(nameServer.close);
    // Long enough that the reads below come first by far, unless something holds them back until the lookups give up.
    const lookups = resolverThrough(nameServer.address, 5_000);
    const server = await serverWithSmallPool(lookups.resolve, 3);
    const owner = await createTestWorkspace(server.store);
    const call = adminClient(server.url, owner.workspaceId, (await createTestMemberToken(server.store, owner)).token);
    const other = await createTestWorkspace(server.store);

    const events: string[] = [];
    const creations = [1, 2, 3].map((n) => call({
      method: 'POST',
      path: '/webhooks',
      headers: { 'Idempotency-Key': `lookup-${n}` },
      body: { url: `https://hooks-${n}.example.test/receive`, name: `Hook ${n}`, events: ['content.status_updated'] },
    }).then((answer) => {
      events.push(`creation answered ${answer.status}`);
      return answer;
    }));
    // Not left unhandled when an assertion below ends the test first.
    void Promise.allSettled(creations);
    // The three lookups reach the name server at once, unless a creation's unit of work holds the
    // others back (SQLite's write lock), in which case the first answer comes after a lookup gives up.
    await until(() => nameServer.queries() >= 3 || events.length > 0, 30_000, 'the lookups reaching the name server');
    events.push(`${nameServer.queries()} lookups pending`);

    const reads = await Promise.all([1, 2, 3, 4].map(() => send(server.url, { path: '/api/v1/me' }, other.key)));
    events.push(`reads answered ${reads.map((r) => r.status).join(' ')}`);
    lookups.cancel();
    const answers = await Promise.all(creations);

    expect(events.slice(0, 2)).toEqual(['3 lookups pending', 'reads answered 200 200 200 200']);
    // The lookups failed (cancelled here, as a timeout would end them): each creation is refused as the URL check refuses it.
    for (const answer of answers) {
      expect([answer.status, (answer.body as { data: { errors: Array<{ name: string }> } }).data.errors[0]!.name]).toEqual([422, 'url']);
    }
  }, 60_000);
});
