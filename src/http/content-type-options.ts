import type { RequestHandler } from 'express';

/**
 * `X-Content-Type-Options: nosniff` on every answer: a browser takes a JSON answer (or a
 * download) for what its `Content-Type` says, never for a script or a page it guessed from the
 * bytes, whatever text a client managed to put in it.
 */
export function forbidContentSniffing(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
}
