import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as received, for signature checks. */
  rawBody: string;
  receivedAt: number;
}

/** What the receiver answers to the n-th request (0-based); `hang` never answers. */
export type ReceiverReply = { status: number; body?: string; headers?: Record<string, string> } | 'hang';
export type ReceiverScript = (request: ReceivedRequest, index: number) => ReceiverReply;

export interface TestReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** TCP connections accepted so far (the SSRF tests expect none). */
  connections: () => number;
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitForRequests: (count: number, timeoutMs?: number) => Promise<ReceivedRequest[]>;
  close: () => Promise<void>;
}

export const answer = (status: number, body = ''): ReceiverReply => ({ status, body });

/** A real HTTP receiver on a loopback port, scripted per request. */
export async function startReceiver(script: ReceiverScript = () => answer(200, 'ok'), host = '127.0.0.1'): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const index = requests.length;
      requests.push(request);
      for (const w of [...waiters]) {
        if (requests.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
      const reply = script(request, index);
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body ?? '');
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/hooks`,
    port,
    requests,
    connections: () => connections,
    waitForRequests: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        if (requests.length >= count) return resolve(requests);
        const timer = setTimeout(() => reject(new Error(`expected ${count} requests, got ${requests.length}`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests);
          },
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `startReceiver` for the running test: closed when that test finishes (in reverse order of starting). */
export async function startReceiverForThisTest(...args: Parameters<typeof startReceiver>): Promise<TestReceiver> {
  const receiver = await startReceiver(...args);
  onTestFinished(receiver.close);
  return receiver;
}
