import type { RequestHandler } from 'express';

import { markHeadResponse } from './head-responses.js';

/**
 * HEAD wherever GET is, as RFC 9110 says and the contract's `x-head-for-every-get` states once (it
 * lists no HEAD operation: they doubled every generated client). The request continues as the GET
 * it mirrors, before the route match, so authentication, the rate limit, usage counting, validation
 * and the handler treat both alike and the headers come out the same; Node made the response for
 * a HEAD request, so it sends the status and the headers and drops the body.
 */
export function answerHeadLikeGet(): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'HEAD') {
      markHeadResponse(res);
      req.method = 'GET';
    }
    next();
  };
}
