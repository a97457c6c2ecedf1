import cors from 'cors';
import type { RequestHandler } from 'express';

/** What a browser page may read of an answer, beyond the few headers it always may. */
const EXPOSED_HEADERS = ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'ETag', 'X-Request-Id', 'Content-Disposition'];
/** What a page may send: a key in either header, and the revalidation header. */
const ALLOWED_HEADERS = ['Authorization', 'X-API-KEY', 'If-None-Match', 'X-Request-Id'];
/** How long a browser may reuse a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Lets browser pages of the listed origins (CORS_ALLOWED_ORIGINS, exact `scheme://host[:port]`)
 * call the read API: preflights are answered here, before authentication, so they are never
 * counted; answers to those origins expose the rate-limit, ETag and request-id headers. Any other
 * origin gets no CORS header at all, so its browser refuses to read the answer. With no origin
 * listed (the default) nothing changes.
 */
export function allowBrowserOrigins(origins: readonly string[]): RequestHandler {
  if (origins.length === 0) return (_req, _res, next) => next();
  const allowed = new Set(origins);
  const policy = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'HEAD'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  });
  return (req, res, next) => {
    // The answer differs by origin whether or not this one is allowed.
    res.vary('Origin');
    policy(req, res, next);
  };
}
