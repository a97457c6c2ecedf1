import type { Request, Response } from 'express';

/**
 * The session's cookie. `__Host-` makes the browser refuse it unless it is `Secure`, has `Path=/`
 * and no `Domain`, so no other host (a sibling subdomain) can set or shadow it.
 */
export const SESSION_COOKIE = '__Host-wsapi_console';
/** Before a session: what the sign-in forms' CSRF tokens are bound to. */
export const PRE_SESSION_COOKIE = '__Host-wsapi_console_pre';

/** One cookie of the request's `Cookie` header; undefined when absent. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Sets a cookie the page's scripts cannot read and other sites' requests do not carry. */
export function setCookie(res: Response, name: string, value: string, maxAgeSeconds: number): void {
  res.append('Set-Cookie', `${name}=${value}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}`);
}

export function clearCookie(res: Response, name: string): void {
  res.append('Set-Cookie', `${name}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0`);
}
