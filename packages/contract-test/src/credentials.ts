import type { Credential } from './http-exchange.js';
import type { OpenApiContract, Operation, SecurityScheme } from './openapi-contract.js';

/** `wsk_live_…` → `wsk_live_`: the part of a secret that says what kind it is. */
export function tokenPrefix(value: string): string {
  return /^[a-z]+_[a-z]+_/.exec(value)?.[0] ?? '';
}

/**
 * Whether a scheme takes a credential of this kind: the contract names the prefix in the scheme's
 * `bearerFormat` or description (`wsk_live_ API key`, `X-API-KEY: wsk_live_...`,
 * `wsm_live_ member token`). A scheme that names no prefix takes any bearer credential.
 */
function accepts(scheme: SecurityScheme, prefix: string): boolean {
  const text = `${scheme.bearerFormat ?? ''} ${scheme.description ?? ''}`;
  const named: string[] = text.match(/\b[a-z]+_[a-z]+_/g) ?? [];
  return named.length === 0 ? prefix !== '' : named.includes(prefix);
}

function asCredential(scheme: SecurityScheme, label: string, value: string, secret: boolean): Credential | undefined {
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') {
    return { label, value, header: 'Authorization', bearer: true, secret };
  }
  if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) {
    return { label, value, header: scheme.name, bearer: false, secret };
  }
  return undefined;
}

/** The prefix of the credential an operation's first scheme names (`wsk_live_`, `wsm_live_`); '' when none does. */
export function schemePrefix(contract: OpenApiContract, op: Operation): string {
  for (const name of op.security.flatMap((r) => Object.keys(r))) {
    const scheme = contract.securityScheme(name);
    const named = `${scheme?.bearerFormat ?? ''} ${scheme?.description ?? ''}`.match(/\b[a-z]+_[a-z]+_/);
    if (named) return named[0];
  }
  return '';
}

/**
 * Every way the operation's security lets this credential travel (one per scheme that takes it),
 * in the contract's order; empty when the operation does not take it.
 */
export function credentialWays(contract: OpenApiContract, op: Operation, label: string, value: string, secret = true): Credential[] {
  const ways: Credential[] = [];
  for (const requirement of op.security) {
    for (const name of Object.keys(requirement)) {
      const scheme = contract.securityScheme(name);
      if (!scheme || !accepts(scheme, tokenPrefix(value))) continue;
      const credential = asCredential(scheme, label, value, secret);
      if (credential && !ways.some((w) => w.header === credential.header)) ways.push(credential);
    }
  }
  return ways;
}

/** The first way the operation takes one of the credentials, in the order given, keeping what names it in reports (its environment variable). */
export function credentialFor(contract: OpenApiContract, op: Operation, credentials: readonly Credential[]): Credential | undefined {
  for (const c of credentials) {
    const way = credentialWays(contract, op, c.label, c.value)[0];
    if (way) return { ...c, header: way.header, bearer: way.bearer };
  }
  return undefined;
}

/** Whether every scheme of the operation takes this credential (the operation belongs to its API alone). */
export function takesOnly(contract: OpenApiContract, op: Operation, value: string): boolean {
  const names = op.security.flatMap((r) => Object.keys(r));
  return names.length > 0 && names.every((name) => {
    const scheme = contract.securityScheme(name);
    return scheme !== undefined && accepts(scheme, tokenPrefix(value));
  });
}

/**
 * The key scopes an operation requires: those its security requirement lists, else the scopes its
 * description names ("Requires `visibility:read`"), taken only among the contract's `Scope` values
 * (a member token's role, `MemberToken: [owner]`, is not a scope a key can lack).
 */
export function requiredScopes(contract: OpenApiContract, op: Operation): string[] {
  // Scopes of API keys only: a member token's requirement names a role (`owner`), not a scope.
  const known = contract.enumOf('Scope');
  const listed = [...new Set(op.security.flatMap((r) => Object.values(r).flat()))].filter((s) => known.includes(s));
  if (listed.length > 0) return listed;
  const named = [...op.description.matchAll(/Requires\s+((?:`[^`]+`(?:,\s*|\s+and\s+)?)+)/g)]
    .flatMap((m) => [...m[1]!.matchAll(/`([^`]+)`/g)].map((s) => s[1]!));
  return [...new Set(named.filter((s) => known.includes(s)))];
}
