import type { Scope } from '../../../src/keys/scopes.js';

/**
 * The API's scope table (docs/client-teams.md, "Keys, errors, paging and the rate limit"), written out independently of the service's own mapping so the
 * tests check the service against the document rather than against itself.
 */
const SCOPE_BY_PREFIX: Array<[prefix: string, scope: Scope]> = [
  ['/api/v1/workspace', 'workspace:read'],
  ['/api/v1/visibility', 'visibility:read'],
  ['/api/v1/content-map', 'contentmap:read'],
  ['/api/v1/content', 'content:read'],
  ['/api/v1/iq', 'iq:read'],
];

/** The scopes a read path needs: one for its prefix, none for `/api/v1/me`. */
export function expectedScopes(templatedPath: string): Scope[] {
  const found = SCOPE_BY_PREFIX.find(([prefix]) => templatedPath === prefix || templatedPath.startsWith(`${prefix}/`));
  return found ? [found[1]] : [];
}

/** The documented exemption from the subscription check: `/me` and `/workspace` and below. */
export function exemptFromSubscription(templatedPath: string): boolean {
  return ['/api/v1/me', '/api/v1/workspace'].some((p) => templatedPath === p || templatedPath.startsWith(`${p}/`));
}

/** Operations behind an API key (the read API); the admin API authenticates differently. */
export function isReadApi(templatedPath: string): boolean {
  return templatedPath.startsWith('/api/v1/');
}

export function hasPathParameters(templatedPath: string): boolean {
  return /\{[^}]+\}/.test(templatedPath);
}
