import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import { duplexPair, type Duplex } from 'node:stream';

/** The sockets of requests the service made to itself (the console's calls of the administration API). */
const inProcessSockets = new WeakSet<object>();

/**
 * True when the request was made by the service itself through `requestInProcess`: no client can
 * open such a socket, so this cannot be claimed from outside with a header.
 */
export function isInProcessRequest(req: { socket: object }): boolean {
  return inProcessSockets.has(req.socket);
}

export interface InProcessRequest {
  method: string;
  /** Path and query, e.g. `/api/workspace/…/api-keys?limit=100`. */
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  /** The address of the client the request is made for, as the app's `req.ip` will read it. */
  clientAddress: string | undefined;
}

export interface InProcessAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * One HTTP request to the app `server` serves, over an in-memory connection handed to the server
 * as if it had been accepted: the request passes the app's whole pipeline (logging, guards,
 * validation, idempotency, handler, envelope) without a port, a socket or a second listener.
 * `server` need not listen.
 */
export function requestInProcess(server: Server, input: InProcessRequest): Promise<InProcessAnswer> {
  const [serverSide, clientSide] = duplexPair();
  inProcessSockets.add(serverSide);
  // What Express reads of a socket: the peer's address (req.ip) and whether it was encrypted.
  Object.assign(serverSide, { remoteAddress: input.clientAddress, encrypted: false });
  server.emit('connection', serverSide);
  const body = input.body === undefined ? undefined : JSON.stringify(input.body);
  const headers: Record<string, string> = { host: 'localhost', ...input.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise<InProcessAnswer>((resolve, reject) => {
    const finish = (socket: Duplex): void => {
      socket.destroy();
      serverSide.destroy();
    };
    const req = request({ method: input.method, path: input.path, headers, createConnection: () => clientSide }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        finish(clientSide);
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text === '' ? null : JSON.parse(text);
        } catch {
          // Not JSON: handed back as text.
        }
        resolve({ status: res.statusCode ?? 500, headers: res.headers, body: parsed });
      });
    });
    req.on('error', (err) => {
      finish(clientSide);
      reject(err);
    });
    req.end(body);
  });
}
