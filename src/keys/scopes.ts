import type { components } from '../../generated/openapi.js';
import { bundledContract } from '@workspace-read-api/contract/documents.js';

export type Scope = components['schemas']['Scope'];

/**
 * Every scope, in the canonical order keys list them: the contract's `Scope` enum, which each
 * operation's `security` names its scopes from (the spec gate refuses any other).
 */
export const ALL_SCOPES: readonly Scope[] = scopesOfContract(bundledContract.openApi());

function scopesOfContract(document: object): readonly Scope[] {
  const scopes = (document as { components?: { schemas?: { Scope?: { enum?: unknown } } } }).components?.schemas?.Scope?.enum;
  if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((s) => typeof s === 'string')) throw new Error('the contract names no scopes (components.schemas.Scope.enum)');
  return scopes as Scope[];
}

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
