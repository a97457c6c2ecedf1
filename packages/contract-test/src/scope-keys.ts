import { credentialWays } from './credentials.js';
import { all, status, succeeds } from './expectations.js';
import type { Credential } from './http-exchange.js';
import { fillPath } from './read-cases.js';
import type { ScopedKey } from './refusal-cases.js';
import type { RunContext } from './run-context.js';

/** A key the run minted, to be revoked before it ends. */
export interface MintedKey extends ScopedKey {
  id: string;
}

/**
 * With a member token and `--allow-writes`: one API key per scope of the contract's `Scope`,
 * holding that scope alone and expiring within the hour, so that every scoped operation meets a
 * key that lacks its scope (403) and one that holds it. Revoked by `revokeMintedKeys`.
 */
export async function mintScopeKeys(ctx: RunContext, token: Credential, workspaceId: string, name: string): Promise<MintedKey[]> {
  const op = ctx.contract.operation('createApiKey');
  if (!op) return [];
  const credential = credentialWays(ctx.contract, op, token.label, token.value)[0] ?? token;
  const keys: MintedKey[] = [];
  for (const scope of ctx.contract.enumOf('Scope')) {
    const body = { name: `${name} (${scope} only)`, scopes: [scope], expires_at: new Date(Date.now() + 3_600_000).toISOString() };
    const answer = await ctx.exchange(op, `mint a key holding only ${scope}`, { method: op.method, path: fillPath(op.path, { workspace_id: workspaceId }), query: [], credential, body },
      all(succeeds, status(201)), { essential: true });
    const data = (answer?.json as { data?: { api_key?: { id?: string }; key?: string } } | undefined)?.data;
    if (!data?.api_key?.id || !data.key) continue;
    const envVar = `WORKSPACE_API_KEY_WITH_${scope.replace(/\W+/g, '_').toUpperCase()}`;
    keys.push({ id: data.api_key.id, granted: [scope], credential: { label: `a key holding only ${scope}`, value: data.key, header: 'Authorization', bearer: true, secret: true, envVar } });
  }
  return keys;
}

/** Revokes the keys `mintScopeKeys` made, whatever happened in between. */
export async function revokeMintedKeys(ctx: RunContext, token: Credential, workspaceId: string, keys: readonly MintedKey[]): Promise<void> {
  const op = ctx.contract.operation('revokeApiKey');
  if (!op) return;
  const credential = credentialWays(ctx.contract, op, token.label, token.value)[0] ?? token;
  for (const key of keys) {
    await ctx.exchange(op, `revoke the key holding only ${key.granted.join(', ')}`,
      { method: op.method, path: fillPath(op.path, { workspace_id: workspaceId, key_id: key.id }), query: [], credential }, succeeds, { essential: true });
  }
}
