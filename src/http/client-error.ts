import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { Codes, type Code } from '../errors/codes.js';

/** After the answer, how long the client has to read it before the connection is destroyed. */
const CLOSE_GRACE_MS = 1_000;

interface Refusal {
  status: number;
  code: Code;
  message: string;
}

/** Fixed texts: nothing of what the client sent is echoed back. */
function refusalFor(parserError: string | undefined): Refusal {
  switch (parserError) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: Codes.HEADERS_TOO_LARGE,
        message: `Request headers too large: the request line and headers must stay under ${maxHeaderSize / 1024} KB.`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: Codes.REQUEST_TIMEOUT, message: 'Request timeout: the request did not arrive in time; send it again.' };
    default:
      return {
        status: 400,
        code: Codes.MALFORMED_REQUEST,
        message: 'Malformed request: the request line, a header or the message framing is not valid HTTP/1.1.',
      };
  }
}

/**
 * The server's `clientError` listener: a request that Node's HTTP parser refuses (headers too
 * large, a bad request line, `Content-Length` with `Transfer-Encoding`) or that did not arrive
 * within the timeouts (src/http/connection-limits.ts) never reaches Express, so it is answered
 * here, in the envelope, straight on the socket, and the connection is closed. The parser's error
 * is logged by its code only: the error object carries the raw bytes, credentials included.
 */
export function answerClientError(logger: Logger): (err: Error & { code?: string }, socket: Duplex) => void {
  return (err, socket) => {
    const connection = socket as Socket;
    // A reset or closed connection has nobody left to answer.
    if (err.code === 'ECONNRESET' || !connection.writable) {
      connection.destroy();
      return;
    }
    // A response is under way on this connection (a pipelined request went bad): another answer
    // written now would be read as that response. A connection that never sent a byte has no
    // request to answer. Both are only closed.
    const inFlight = (connection as Socket & { _httpMessage?: unknown })._httpMessage;
    if (inFlight || connection.bytesRead === 0) {
      connection.destroy();
      return;
    }
    const refusal = refusalFor(err.code);
    const requestId = randomUUID();
    logger.info({ req: { id: requestId }, parser_error: err.code, res: { statusCode: refusal.status } }, 'request refused by the HTTP parser');
    const body = JSON.stringify({ code: refusal.code, messages: refusal.message, data: null });
    connection.end([
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'));
    connection.setTimeout(CLOSE_GRACE_MS, () => connection.destroy());
  };
}
