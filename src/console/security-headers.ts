import type { RequestHandler } from 'express';

/**
 * The console's pages load only the service's own stylesheet and script: no inline script or
 * style, no other origin, no frame, forms posting only to the console itself.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const HEADERS = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // Pages show secrets (a new key) and a member's data: no cache keeps them, the browser's included.
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Every console answer, pages, assets, refusals and errors alike, carries the same headers. */
export function consoleSecurityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.set(HEADERS);
    next();
  };
}
