import { describe, expect, it } from 'vitest';
import { curlLine, maskSecrets } from '@workspace-read-api/contract-test/curl-line.js';

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
