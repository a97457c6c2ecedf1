import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { PRE_SESSION_COOKIE, readCookie, setCookie } from './cookies.js';

/** The form field every console form carries. */
export const CSRF_FIELD = 'csrf';
const PRE_SESSION_SECONDS = 3_600;
const PRE_SESSION_VALUE = /^[A-Za-z0-9_-]{43}$/;

/**
 * A form's CSRF token, derived from a secret the browser holds in an HttpOnly cookie (the session,
 * or before one the pre-session cookie): another site can neither read the cookie nor compute the
 * token, and the server keeps nothing per form.
 */
export function csrfTokenFor(secret: string): string {
  return createHmac('sha256', secret).update('wsapi console form').digest('base64url');
}

/** True when the form carries the token bound to `secret`. */
export function csrfTokenMatches(secret: string | undefined, presented: unknown): boolean {
  if (secret === undefined || typeof presented !== 'string') return false;
  const expected = Buffer.from(csrfTokenFor(secret));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The pre-session cookie's value, set now when the browser has none (a sign-in page is being shown). */
export function preSessionSecret(req: Request, res: Response): string {
  const present = readCookie(req, PRE_SESSION_COOKIE);
  if (present !== undefined && PRE_SESSION_VALUE.test(present)) return present;
  const fresh = randomBytes(32).toString('base64url');
  setCookie(res, PRE_SESSION_COOKIE, fresh, PRE_SESSION_SECONDS);
  return fresh;
}

/** The pre-session cookie the sign-in form was rendered with; undefined when absent or malformed. */
export function presentedPreSession(req: Request): string | undefined {
  const value = readCookie(req, PRE_SESSION_COOKIE);
  return value !== undefined && PRE_SESSION_VALUE.test(value) ? value : undefined;
}
