import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX } from '../../../src/keys/api-keys.js';
import { createSecretToken } from '../../../src/keys/secret-token.js';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { parseRateLimit, send, type ObservedResponse } from '../../support/http.js';
import { startTestServerForThisTest, type TestServer } from '../../support/test-server.js';

const QUOTA = 120;
const WINDOW_S = 60;
const CLIENT_QUOTA = 30;

// A fixed clock the test moves by hand, so the rolling window is deterministic.
let clock = new Date('2026-11-22T09:00:00.000Z');

/** A server of the running test, whose clock starts again at 09:00. */
function start(): Promise<TestServer> {
  clock = new Date('2026-11-22T09:00:00.000Z');
  return startTestServerForThisTest({
    now: () => clock,
    rateLimit: { quota: QUOTA, windowSeconds: WINDOW_S, authFailureQuota: CLIENT_QUOTA },
  });
}

const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};
const me = (s: TestServer, key: string) => send(s.url, { path: '/api/v1/me', key });

describe('the per-workspace rate limit (120 in any rolling 60 s, shared by all keys)', () => {
  it('when 3 keys fire 150 requests at once, admits exactly 120 and answers the rest 429 (4290) with correct headers', async () => {
    const s = await start();
    const ws = await createTestWorkspace(s.store);
    const keys = [ws.key, (await createTestKey(s.store, ws)).key, (await createTestKey(s.store, ws, { scopes: [] })).key];
    const responses = await Promise.all(Array.from({ length: 150 }, (_, i) => me(s, keys[i % 3]!)));

    const admitted = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect([admitted.length, refused.length]).toEqual([120, 30]);

    // Each admission took one slot: the remaining counts are exactly 119 down to 0.
    const remaining = admitted.map((r) => parseRateLimit(r.headers.get('ratelimit')).r).sort((a, b) => b - a);
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    for (const r of [...admitted, ...refused]) expect(r.headers.get('ratelimit-policy')).toBe('"workspace";q=120;w=60');
    for (const r of admitted) expect(parseRateLimit(r.headers.get('ratelimit')).t).toBe(60);

    for (const r of refused) {
      expect(r.body).toEqual({
        code: 4290,
        messages: 'Rate limit exceeded: 120 requests per 60 seconds for this workspace; retry in 60 seconds.',
        data: null,
      });
      expect(parseRateLimit(r.headers.get('ratelimit'))).toEqual({ policy: 'workspace', r: 0, t: 60 });
      expect(r.headers.get('retry-after')).toBe('60');
    }
  });

  it('leaves another workspace untouched while one is exhausted', async () => {
    const s = await start();
    const busy = await createTestWorkspace(s.store);
    const quiet = await createTestWorkspace(s.store);
    await Promise.all(Array.from({ length: 121 }, () => me(s, busy.key)));
    expect((await me(s, busy.key)).status).toBe(429);
    const res = await me(s, quiet.key);
    expect([res.status, res.headers.get('ratelimit')]).toEqual([200, '"workspace";r=119;t=60']);
  });

  it('rolls: slots free exactly 60 s after their request, never at a fixed boundary', async () => {
    const s = await start();
    const ws = await createTestWorkspace(s.store);
    const burst = async (n: number) => (await Promise.all(Array.from({ length: n }, () => me(s, ws.key)))).map((r) => r.status);

    expect(await burst(60)).toEqual(Array(60).fill(200)); // at 0 s
    advance(30);
    expect(await burst(60)).toEqual(Array(60).fill(200)); // at 30 s
    advance(29); // 59 s: all 120 still inside the window
    let res: ObservedResponse = await me(s, ws.key);
    expect([res.status, res.headers.get('retry-after'), res.headers.get('ratelimit')]).toEqual([429, '1', '"workspace";r=0;t=1']);
    advance(1); // 60 s: the first 60 leave the window; the 60 from 30 s stay
    // Which of the 61 is refused depends on the order they reach the limiter, not the order sent.
    expect((await burst(61)).sort()).toEqual([...Array(60).fill(200), 429]);
    res = await me(s, ws.key);
    expect([res.status, res.headers.get('retry-after')]).toEqual([429, '30']);
  });

  it('does not count refused requests: a client hammering through a 429 gets its slot when the window rolls', async () => {
    const s = await start();
    const ws = await createTestWorkspace(s.store);
    await Promise.all(Array.from({ length: 120 }, () => me(s, ws.key)));
    for (let i = 0; i < 20; i++) expect((await me(s, ws.key)).status).toBe(429);
    advance(60);
    expect((await me(s, ws.key)).headers.get('ratelimit')).toBe('"workspace";r=119;t=60');
  });

  it('when a flood of bad keys arrives, the workspace\'s remaining count does not move and the flood turns into 429 per client address', async () => {
    const s = await start();
    const ws = await createTestWorkspace(s.store);
    const revoked = await createTestKey(s.store, ws);
    await s.store.apiKeys.revoke(revoked.id, clock.toISOString());
    expect((await me(s, ws.key)).headers.get('ratelimit')).toBe('"workspace";r=119;t=60');

    const bad = [revoked.key, 'wsk_live_short', createSecretToken(API_KEY_PREFIX), `${ws.key.slice(0, -1)}${ws.key.endsWith('A') ? 'B' : 'A'}`];
    const flood = await Promise.all(Array.from({ length: 60 }, (_, i) => me(s, bad[i % bad.length]!)));
    expect(flood.filter((r) => r.status === 401)).toHaveLength(CLIENT_QUOTA);
    const throttled = flood.filter((r) => r.status === 429);
    expect(throttled).toHaveLength(60 - CLIENT_QUOTA);
    for (const r of throttled) {
      expect(r.body).toMatchObject({ code: 4290, data: null });
      expect(r.headers.get('ratelimit-policy')).toBe(`"client";q=${CLIENT_QUOTA};w=60`);
      expect(parseRateLimit(r.headers.get('ratelimit'))).toEqual({ policy: 'client', r: 0, t: 60 });
      expect(r.headers.get('retry-after')).toBe('60');
    }
    // Requests without any key are refused the same way, and charge no workspace either.
    expect((await send(s.url, { path: '/api/v1/me' })).status).toBe(429);

    expect((await me(s, ws.key)).headers.get('ratelimit')).toBe('"workspace";r=118;t=60');
  });
});
