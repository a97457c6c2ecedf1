import { afterEach, describe, expect, it } from 'vitest';
import { firstJsonLine, jsonOf, runCliInProcess, spawnCli, tempDatabase } from '../../cli/run-cli.js';
import { connectRaw, parseRawResponse, acceptsConnections } from '../../support/raw-http.js';
import { send } from '../../support/http.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { until, valueWhen } from '../../support/wait.js';

let db: ReturnType<typeof tempDatabase> | undefined;
afterEach(() => {
  db?.cleanup();
  db = undefined;
});

const cliJson = async (args: string[]) => jsonOf(await runCliInProcess([...args, '--db', db!.file, '--json']));



describe('serve on SIGTERM', { timeout: 120_000 }, () => {
  it('answers /readyz 503 for the drain delay while still serving, then closes the port, finishes the request in flight and exits 0', async () => {
    db = tempDatabase();
    const { workspaceId: ws, ownerId } = await createTestWorkspace(db.open());
    const { token } = await cliJson(['token', 'create', '--workspace', ws, '--user', ownerId]);

    const { child, exited } = spawnCli(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db.file, '--json'], { DRAIN_DELAY_MS: '4000' });
    const url = String((await firstJsonLine(child)).url);
    expect((await send(url, { path: '/readyz' })).status).toBe(200);

    // A request in flight: its headers are in, its body is still arriving.
    const body = JSON.stringify({ name: 'Created while draining' });
    const inFlight = await connectRaw(url);
    inFlight.socket.write([
      `POST /api/workspace/${ws}/api-keys HTTP/1.1`, `Host: ${new URL(url).host}`, `Authorization: Bearer ${String(token)}`,
      'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, '', body.slice(0, 5),
    ].join('\r\n'));

    child.kill('SIGTERM');
    // The balancer's probe fails first, while the port still takes connections...
    const notReady = await valueWhen(() => send(url, { path: '/readyz' }), (r) => r.status === 503, 20_000, '/readyz to answer 503', 20);
    expect(notReady.body).toEqual({ code: 5030, messages: 'Not ready: this instance is shutting down.', data: null });
    expect(notReady.headers.get('connection')).toBe('close');
    // ...and requests are still served during the delay.
    expect((await send(url, { path: '/healthz' })).status).toBe(200);

    // Then the port closes, with the request still in flight, and the process waits for it.
    await until(async () => !(await acceptsConnections(Number(new URL(url).port))), 20_000, 'the port to close', 20);
    expect(inFlight.received()).toBe('');
    inFlight.socket.write(body.slice(5));
    // Answered, then its keep-alive connection closed rather than left open for the keep-alive timeout.
    await inFlight.closedWithin(3_000);
    const answer = parseRawResponse(inFlight.received());
    expect(answer.status).toBe(201);
    expect((JSON.parse(answer.body) as { data: { api_key: { name: string } } }).data.api_key.name).toBe('Created while draining');

    expect(await exited).toBe(0);
    const keys = (await db.open().apiKeys.listByWorkspace(ws)).map((k) => k.name);
    expect(keys).toContain('Created while draining');
  });
});
