import type { components } from '../../generated/openapi.js';

export type Scope = components['schemas']['Scope'];

/** Every scope, in the canonical order keys list them (the contract's order). */
export const ALL_SCOPES: readonly Scope[] = ['workspace:read', 'visibility:read', 'contentmap:read', 'content:read', 'iq:read'];

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

/** Canonical order, duplicates removed. */
export function normaliseScopes(scopes: readonly Scope[]): Scope[] {
  return ALL_SCOPES.filter((s) => scopes.includes(s));
}

/** The stored form: scopes separated by one space; an empty set is `''`, which splits into `['']`, no scope. */
export function parseStoredScopes(stored: string): Scope[] {
  return stored.split(' ').filter(isScope);
}
