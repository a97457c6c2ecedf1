import { describe, expect, it } from 'vitest';
import { credentialWays, requiredScopes } from '@workspace-read-api/contract-test/credentials.js';
import { curlLine, maskSecrets } from '@workspace-read-api/contract-test/curl-line.js';
import { contract, op } from './bundled-contract.js';


describe('what the checker reads from the bundled contract', () => {
  it('reads the order of checks from the info description', () => {
    expect(contract.orderOfChecks()).toEqual([401, 429, 403, 402, 422, 404]);
  });

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

describe('curl lines', () => {
  it('name the credentials the user gave by their variable, quote the URL, and mask any other secret', () => {
    const line = curlLine('https://api.example/base', {
      method: 'POST',
      path: "/api/v1/it's",
      query: [['q', 'a b&c'], ['cursor', '*(x)']],
      credential: { label: 'key', value: 'wsk_live_SECRETSECRETSECRETSECRETSECRETSECRET', header: 'Authorization', bearer: true, secret: true, envVar: 'WORKSPACE_API_KEY' },
      body: { secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0', other: 'wsm_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ab' },
    });
    expect(line).toBe(`curl -sS -i -X POST -H 'content-type: application/json' -H "Authorization: Bearer $WORKSPACE_API_KEY" `
      + `--data '{"secret":"whsec_…","other":"wsm_live_ABCD…"}' 'https://api.example/base/api/v1/it'\\''s?q=a%20b%26c&cursor=%2A%28x%29'`);
    expect(maskSecrets('key wsk_live_Ab3dEFGHIJKLMNOPQRSTUVWXYZ0123456789 was refused')).toBe('key wsk_live_Ab3d… was refused');
  });
});
