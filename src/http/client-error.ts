import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
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

type InFlight = ServerResponse & { req?: IncomingMessage };

/** The response Node is writing, or will write next, on this connection. */
const inFlightOn = (connection: Socket): InFlight | undefined => (connection as Socket & { _httpMessage?: InFlight })._httpMessage ?? undefined;

/** Writes the refusal on the socket, ends it, and gives the client a moment to read it. */
function refuse(connection: Socket, refusal: Refusal, logger: Logger, parserError: string | undefined): void {
  const requestId = randomUUID();
  logger.info({ req: { id: requestId }, parser_error: parserError, res: { statusCode: refusal.status } }, 'request refused by the HTTP parser');
  const body = JSON.stringify({ code: refusal.code, messages: refusal.message, data: null });
  connection.end([
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}`,
    'Content-Type: application/json; charset=utf-8',
    'X-Content-Type-Options: nosniff',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n'));
  connection.setTimeout(CLOSE_GRACE_MS, () => connection.destroy());
}

/**
 * The server's `clientError` listener: a request that Node's HTTP parser refuses (headers too
 * large, a bad request line, `Content-Length` with `Transfer-Encoding`, a bad chunk size) or that
 * did not arrive within the timeouts (src/http/connection-limits.ts) never reaches Express, so it
 * is answered here, in the envelope, straight on the socket, and the connection is closed. The
 * parser's error is logged by its code only: the error object carries the raw bytes, credentials
 * included.
 *
 * A request may already be in flight on the connection when the parser fails:
 * - its own body is what failed (a bad chunk size): it is answered with the refusal now, before
 *   anything of its own was written; its handler never runs, since its body never completes;
 * - it arrived whole and the failure is in the bytes after it (a `Content-Length` shorter than the
 *   body, then stray bytes): it is answered first, as it was received and perhaps written, and
 *   the refusal follows it;
 * - its answer has started: a refusal written now would be read as part of it, so the connection
 *   is only closed.
 */
export function answerClientError(logger: Logger): (err: Error & { code?: string }, socket: Duplex) => void {
  const answer = (connection: Socket, parserError: string | undefined): void => {
    // A reset or closed connection has nobody left to answer; one that never sent a byte has no
    // request to answer.
    if (parserError === 'ECONNRESET' || !connection.writable || connection.bytesRead === 0) {
      connection.destroy();
      return;
    }
    const inFlight = inFlightOn(connection);
    if (inFlight === undefined || (!inFlight.headersSent && inFlight.req?.complete === false)) {
      refuse(connection, refusalFor(parserError), logger, parserError);
    } else if (!inFlight.headersSent || !inFlight.writableFinished) {
      // Answered once its response is out (Node then moves the next one, if any, onto the socket).
      inFlight.once('finish', () => setImmediate(() => answer(connection, parserError)));
      inFlight.once('close', () => {
        if (!inFlight.writableFinished) connection.destroy();
      });
    } else {
      connection.destroy();
    }
  };
  return (err, socket) => answer(socket as Socket, err.code);
}
