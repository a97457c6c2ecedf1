import type { RequestHandler, Response } from 'express';
import type { RouteMatch } from '@workspace-read-api/contract/operation-matcher.js';
import type { ServiceMetrics } from './service-metrics.js';

/** The contract operation the request was matched to; `none` for service endpoints and unknown paths. */
function operationIdOf(res: Response): string {
  const match = res.locals.route as RouteMatch | undefined;
  return match?.kind === 'operation' ? match.operation.operationId : 'none';
}

/**
 * Times every request from its arrival to its last byte, labelled once it is answered: the
 * operation is known only after the route match, and a HEAD request continues as its GET, so the
 * method is read before anything changes it.
 */
export function measureRequests(metrics: ServiceMetrics): RequestHandler {
  return (req, res, next) => {
    const method = req.method;
    const stop = metrics.requests.startTimer();
    res.once('finish', () => stop({ operation_id: operationIdOf(res), method, status: String(res.statusCode) }));
    next();
  };
}
