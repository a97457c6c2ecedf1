import { describe, expect, it } from 'vitest';
import { ALL_SCOPES, type Scope } from '../../../src/keys/scopes.js';
import { createSecretToken } from '../../../src/keys/secret-token.js';
import type { SubscriptionStatus } from '../../../src/store/interfaces/accounts.js';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';

// How the read API's scope and subscription guards (src/http/guards/scope-guard.ts, subscription-guard.ts)
// answer, on a few operations. Which scope and exemption each operation has is checked for every
// operation of the contract, without a server, in test/unit/contract/operation-requirements.test.ts.
// The subscription comes from the key's row, so this runs on both stores.

const server = useTestServer();

const PROMPTS = '/api/v1/visibility/prompts';

/** A key holding `scopes` of a new workspace whose subscription is `subscription`. */
async function keyWith(scopes: readonly Scope[], subscription: SubscriptionStatus = 'active'): Promise<string> {
  const workspace = await createTestWorkspace(server.store, { subscription });
  return (await createTestKey(server.store, workspace, { scopes })).key;
}

const answer = async (path: string, key: string, method = 'GET') => {
  const res = await send(server.url, { method, path, key });
  return res.status < 300 ? res.status : [res.status, res.body];
};

const scopeMissing = (scope: Scope) => [403, {
  code: 4023,
  messages: `The API key lacks the scope required for this request: ${scope}.`,
  data: { required: [scope], missing: [scope] },
}];
const paymentRequired = [402, {
  code: 1916,
  messages: 'The workspace has no active subscription or a payment is past due; renew the plan or fix the payment.',
  data: null,
}];

describe('the scope guard', () => {
  it('answers 403 (4023) naming the required and the missing scope when the key lacks it, whatever else the key holds', async () => {
    const lacking: Scope[][] = [[], ['iq:read'], ALL_SCOPES.filter((s) => s !== 'visibility:read')];
    for (const scopes of lacking) {
      expect(await answer(PROMPTS, await keyWith(scopes)), scopes.join(' ')).toEqual(scopeMissing('visibility:read'));
    }
    expect(await answer('/api/v1/iq/products', await keyWith(['visibility:read', 'content:read']))).toEqual(scopeMissing('iq:read'));
  });

  it('answers a key holding just the operation\'s scope, and any key where the operation names none', async () => {
    expect(await answer(PROMPTS, await keyWith(['visibility:read']))).toBe(200);
    expect(await answer('/api/v1/iq/products', await keyWith(['iq:read']))).toBe(200);
    expect(await answer('/api/v1/me', await keyWith([]))).toBe(200);
  });
});

describe('the subscription guard', () => {
  it('answers 402 (1916) for every subscription status but active, outside /me and /workspace', async () => {
    for (const status of ['past_due', 'canceled', 'none'] as const) {
      expect(await answer(PROMPTS, await keyWith(ALL_SCOPES, status)), status).toEqual(paymentRequired);
    }
    expect(await answer(PROMPTS, await keyWith(ALL_SCOPES, 'active'))).toBe(200);
  });

  it('answers the reads marked x-subscription-exempt without an active subscription', async () => {
    const key = await keyWith(ALL_SCOPES, 'none');
    for (const path of ['/api/v1/me', '/api/v1/workspace', '/api/v1/workspace/usage']) expect(await answer(path, key), path).toBe(200);
    expect(await answer('/api/v1/workspace', key, 'HEAD')).toBe(200);
    expect(await answer('/api/v1/visibility/setup', key)).toEqual(paymentRequired);
  });
});

describe('the order of the checks', () => {
  it('answers 401, then 403 for the scope, then 402 for the subscription', async () => {
    const unscoped = await keyWith([], 'past_due');
    expect(await answer(PROMPTS, unscoped)).toEqual(scopeMissing('visibility:read'));
    expect(await answer(PROMPTS, await keyWith(['visibility:read'], 'past_due'))).toEqual(paymentRequired);
    expect(await answer(PROMPTS, createSecretToken('wsk_live_'))).toEqual([401, expect.objectContaining({ code: 4022 })]);
  });

  it('lets a request no operation answers go on to its 404 or 405, whatever the key holds and the subscription', async () => {
    const key = await keyWith([], 'none');
    expect(await answer('/api/v1/visibility/no-such-read', key)).toEqual([404, expect.objectContaining({ code: 4040 })]);
    expect(await answer(PROMPTS, key, 'DELETE')).toEqual([405, expect.objectContaining({ code: 4050 })]);
  });
});
