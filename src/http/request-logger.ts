import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { stdSerializers, type Logger } from 'pino';
import type { Request } from 'express';
import { scrubSecrets, scrubSecretsDeep } from './secret-redaction.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** A 503 the service answered on purpose (no error thrown past the error middleware). */
function refusedForNow(res: ServerResponse & { err?: unknown }, err?: unknown): boolean {
  return res.statusCode === 503 && err === undefined && res.err === undefined;
}

/**
 * One line per request with a request id, echoed in `X-Request-Id`. Lean serializers: headers are
 * never logged, so no key or token can reach a log line; redaction paths guard custom fields.
 */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const incoming = req.headers['x-request-id'];
      // A secret pasted into the id would be echoed and logged with every line of the request.
      const usable = typeof incoming === 'string' && REQUEST_ID.test(incoming) && scrubSecrets(incoming) === incoming;
      const id = usable ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // Serializers that read the request and the error directly: pino-http's default wrapping first
    // copies every request (headers included) into an object of its own, on every request, only
    // for these to pick four fields of it.
    wrapSerializers: false,
    serializers: {
      // The URL as the client sent it; the client's address as Express reads it: the socket's
      // peer, or the address a trusted proxy forwarded (TRUST_PROXY), so a log line names the
      // client rather than the balancer.
      req: (req: Request & { id: string }) => ({
        id: req.id, method: req.method, url: scrubSecrets(req.originalUrl || req.url), remote_address: req.ip ?? req.socket?.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: (err: Error) => scrubSecretsDeep(stdSerializers.err(err)),
    },
    customSuccessMessage: () => 'request completed',
    // A 503 is a refusal the client retries (a dependency away, the instance draining), logged
    // where its cause is watched (dependency-outages.ts): its request line is info, with no made-up
    // error and stack, so an outage does not write one error per request.
    customErrorMessage: (_req, res) => (refusedForNow(res) ? 'request refused for now (503)' : 'request failed'),
    customErrorObject: (_req, res, _err, value: Record<string, unknown>) => {
      if (!refusedForNow(res)) return value;
      const { err: _ignored, ...rest } = value;
      return rest;
    },
    customLogLevel: (_req, res, err) => (refusedForNow(res, err) ? 'info' : err || res.statusCode >= 500 ? 'error' : 'info'),
  });
}
