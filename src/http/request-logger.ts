import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import { scrubSecrets, scrubSecretsDeep } from './secret-redaction.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

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
    serializers: {
      // The client's address as Express reads it: the socket's peer, or the address a trusted proxy
      // forwarded (TRUST_PROXY), so a log line names the client rather than the balancer.
      req: (req: { id: string; method: string; url: string; remoteAddress?: string; raw?: { ip?: string } }) => ({
        id: req.id, method: req.method, url: scrubSecrets(req.url), remote_address: req.raw?.ip ?? req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: (err: object) => scrubSecretsDeep(err),
    },
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
  });
}
