import { describe, expect, it } from 'vitest';
import { credentialWays, requiredScopes } from '@workspace-read-api/contract-test/credentials.js';
import { contract, op } from './bundled-contract.js';

describe('which credential the checker sends, and the scopes it expects, from the bundled contract', () => {
  it('reads each read operation\'s scope, and none for /me and the administration API', () => {
    expect([requiredScopes(contract, op('getPromptAnalytics')), requiredScopes(contract, op('listTopics')), requiredScopes(contract, op('getMe')), requiredScopes(contract, op('listWebhooks'))])
      .toEqual([['visibility:read'], ['contentmap:read'], [], []]);
  });

  it('sends a key as Bearer or X-API-KEY where the operation takes keys, and a member token only to the administration API', () => {
    const key = 'wsk_live_0000000000000000000000000000000000aaaa';
    const token = 'wsm_live_0000000000000000000000000000000000aaaa';
    const ways = (id: string, value: string) => credentialWays(contract, op(id), 'x', value).map((w) => [w.header, w.bearer]);
    expect(ways('getMe', key)).toEqual([['Authorization', true], ['X-API-KEY', false]]);
    expect(ways('getMe', token)).toEqual([]);
    expect(ways('listWebhooks', token)).toEqual([['Authorization', true]]);
    expect(ways('listWebhooks', key)).toEqual([]);
    expect(ways('listWebhookEvents', key).length).toBeGreaterThan(0);
  });
});
