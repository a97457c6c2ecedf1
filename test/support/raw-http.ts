import net from 'node:net';

/** A raw HTTP answer read off a socket: status, lower-cased headers, body text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves when the server closes the connection (or it breaks), with the milliseconds it stayed open. */
  closed: Promise<number>;
  /** Rejects unless the connection closes within `ms`. */
  closedWithin: (ms: number) => Promise<number>;
}

/** Whether something accepts TCP connections on the loopback port (the connection is closed at once). */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Opens a TCP connection to the server of `baseUrl`; nothing is sent until the test writes. */
export async function connectRaw(baseUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  let data = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    data += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const openedAt = performance.now();
  const closed = new Promise<number>((resolve) => {
    socket.on('error', () => {});
    socket.once('close', () => resolve(performance.now() - openedAt));
  });
  return {
    socket,
    received: () => data,
    closed,
    closedWithin: (ms) => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the server kept the connection open for more than ${ms} ms`)), ms);
      });
      return Promise.race([closed, deadline]).finally(() => clearTimeout(timer));
    },
  };
}

/** Sends `bytes`, waits for the server to close the connection, and parses what it answered. */
export async function exchangeRaw(baseUrl: string, bytes: string, withinMs = 5_000): Promise<RawResponse> {
  const connection = await connectRaw(baseUrl);
  connection.socket.write(bytes);
  await connection.closedWithin(withinMs);
  return parseRawResponse(connection.received());
}

/** One HTTP/1.1 response (status line, headers, body as given by Content-Length). */
export function parseRawResponse(text: string): RawResponse {
  return readRawResponse(text).response;
}

/** Every response in `text`, one after the other (each body as given by its Content-Length). */
export function parseRawResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  for (let rest = text; rest !== '';) {
    const { response, length } = readRawResponse(rest);
    responses.push(response);
    rest = rest.slice(length);
  }
  return responses;
}

function readRawResponse(text: string): { response: RawResponse; length: number } {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...headerLines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = text.slice(end + 4);
  const length = headers['content-length'];
  const body = length === undefined ? rest : rest.slice(0, Number(length));
  return { response: { status, headers, body }, length: end + 4 + body.length };
}
