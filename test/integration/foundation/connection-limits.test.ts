import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { startConfiguredServer } from '../../support/process-server.js';
import { connectRaw, parseRawResponse, type RawConnection } from '../../support/raw-http.js';
import { until } from '../../support/wait.js';

/** Shortened so a test sees them act; the defaults are in src/config.ts and the README's configuration table. */
const SHORT_TIMEOUTS = { HTTP_HEADERS_TIMEOUT_MS: '400', HTTP_REQUEST_TIMEOUT_MS: '800', HTTP_KEEP_ALIVE_TIMEOUT_MS: '300' };
/** A generous bound on "closed by the server": the longest timeout above, Node's check interval and a busy machine. */
const CLOSED_WITHIN_MS = 5_000;

const opened: RawConnection[] = [];
afterEach(() => {
  for (const c of opened.splice(0)) c.socket.destroy();
});

async function connect(running: RunningServer): Promise<RawConnection> {
  const connection = await connectRaw(running.url);
  opened.push(connection);
  return connection;
}

/** Writes `unit` every 50 ms until the connection closes: a client that never finishes. */
function trickle(connection: RawConnection, unit: string): void {
  const timer = setInterval(() => connection.socket.write(unit), 50);
  void connection.closed.then(() => clearInterval(timer));
}


const openConnections = (running: RunningServer) =>
  new Promise<number>((resolve, reject) => running.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

const HEALTH = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n';

describe('connections to a server with short timeouts', () => {
  let running: Awaited<ReturnType<typeof startConfiguredServer>>;
  beforeAll(async () => {
    running = await startConfiguredServer(SHORT_TIMEOUTS);
  });
  afterAll(async () => {
    await running.close();
  });

  it('when a connection never sends anything, the server closes it after the headers timeout, without an answer', async () => {
    const idle = await connect(running);
    await idle.closedWithin(CLOSED_WITHIN_MS);
    expect(idle.received()).toBe('');
  });

  it('when a keep-alive connection sits idle after an answer, the server closes it after the keep-alive timeout', async () => {
    const connection = await connect(running);
    connection.socket.write(HEALTH);
    await connection.closedWithin(CLOSED_WITHIN_MS);
    expect(parseRawResponse(connection.received()).status).toBe(200);
  });

  it('when the headers trickle in and never end, the server cuts the request off with 408 (4080)', async () => {
    const connection = await connect(running);
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    trickle(connection, 'X-Slow: 1\r\n');
    await connection.closedWithin(CLOSED_WITHIN_MS);
    const res = parseRawResponse(connection.received());
    expect([res.status, JSON.parse(res.body)]).toEqual([408, { code: 4080, messages: 'Request timeout: the request did not arrive in time; send it again.', data: null }]);
  });

  it('when a body trickles in and never ends, the server cuts the request off after the request timeout', async () => {
    const workspace = await createTestWorkspace(running.store);
    const { token } = await createTestMemberToken(running.store, workspace);
    const connection = await connect(running);
    connection.socket.write([
      `POST /api/workspace/${workspace.workspaceId}/api-keys HTTP/1.1`,
      'Host: localhost',
      `Authorization: Bearer ${token}`,
      'Content-Type: application/json',
      'Content-Length: 100000',
      '',
      '{"name":"',
    ].join('\r\n'));
    trickle(connection, 'a');
    await connection.closedWithin(CLOSED_WITHIN_MS);
    // Nothing was created from the half-sent body.
    expect(running.store.db.prepare('SELECT count(*) AS n FROM api_keys WHERE workspace_id = ?').get(workspace.workspaceId)).toEqual({ n: 1 });
  });

});

describe('connections to a server with a cap of three', () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startConfiguredServer({ HTTP_MAX_CONNECTIONS: '3' });
  });
  afterAll(async () => {
    await running.close();
  });

  it('when the cap is reached, refuses new connections at once while the open ones still get answers', async () => {
    const held = [await connect(running), await connect(running), await connect(running)];
    await until(async () => (await openConnections(running)) === 3, CLOSED_WITHIN_MS, 'three open connections');

    const refused = await connect(running);
    await refused.closedWithin(CLOSED_WITHIN_MS);
    expect(refused.received()).toBe('');

    for (const connection of held) {
      connection.socket.write(HEALTH);
      await until(async () => connection.received().includes('"status":"ok"'), CLOSED_WITHIN_MS, 'an answer on a held connection');
      expect(parseRawResponse(connection.received()).status).toBe(200);
    }

    // A slot that frees up is usable again: the cap counts open connections, not a budget.
    held[0]!.socket.destroy();
    await until(async () => (await openConnections(running)) === 2, CLOSED_WITHIN_MS, 'a freed slot');
    const next = await connect(running);
    next.socket.write(HEALTH);
    await until(async () => next.received().includes('"status":"ok"'), CLOSED_WITHIN_MS, 'an answer on a new connection');
  });
});
