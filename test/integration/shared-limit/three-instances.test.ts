import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import type { RunningServer } from '../../../src/server.js';
import { openPostgresStore, type Store } from '../../../src/store/index.js';
import { createSecretToken } from '../../../src/keys/secret-token.js';
import { API_KEY_PREFIX } from '../../../src/keys/api-keys.js';
import { createTestKey, createTestMember, createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { parseRateLimit, send, type ObservedResponse } from '../../support/http.js';
import { createPostgresDatabase, postgresAvailable } from '../../support/postgres.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { startInstances } from '../../support/service-instances.js';

const CLIENT_QUOTA = 30;

let redis: RedisServer;
/** The operator's connection: the data each test makes, written straight to the database. */
let admin: Store;
let instances: RunningServer[] = [];

/** Request `i` goes to instance `i % 3`, as a round-robin balancer sends it. */
const spread = (n: number, request: (instance: RunningServer, i: number) => Promise<ObservedResponse>) =>
  Promise.all(Array.from({ length: n }, (_, i) => request(instances[i % 3]!, i)));
const me = (instance: RunningServer, key: string) => send(instance.url, { path: '/api/v1/me', key });

describeWithRedis('three instances over one PostgreSQL and one Redis', () => {
  beforeAll(async () => {
    if (!postgresAvailable()) throw new Error('these tests need the run\'s PostgreSQL cluster (see the notice at the start of the run)');
    redis = await startRedisServer();
    const databaseUrl = await createPostgresDatabase();
    instances = await startInstances(3, {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      AUTH_FAILURE_QUOTA: String(CLIENT_QUOTA),
      // Three instances and 150 concurrent requests in one test process on a shared machine can
      // hold a Redis reply in the event loop past the 250 ms default: the test measures the
      // counting, not the timeout.
      REDIS_COMMAND_TIMEOUT_MS: '2000',
    });
    admin = await openPostgresStore(databaseUrl);
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await admin?.close();
    await redis?.remove();
  });

  it('admit exactly 120 of 150 concurrent requests for one workspace, whichever instance each reaches; another workspace is untouched', async () => {
    const busy = await createTestWorkspace(admin);
    const quiet = await createTestWorkspace(admin);
    const responses = await spread(150, (instance) => me(instance, busy.key));

    const admitted = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(responses.filter((r) => r.status !== 200 && r.status !== 429).map((r) => r.text)).toEqual([]);
    expect([admitted.length, refused.length]).toEqual([120, 30]);
    // Each admission took one slot of the one shared log: remaining counts are 119 down to 0, once each.
    const remaining = admitted.map((r) => parseRateLimit(r.headers.get('ratelimit')).r).sort((a, b) => b - a);
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    for (const r of responses) expect(r.headers.get('ratelimit-policy')).toBe('"workspace";q=120;w=60');
    for (const r of refused) {
      const { t } = parseRateLimit(r.headers.get('ratelimit'));
      expect(r.body).toEqual({ code: 4290, messages: `Rate limit exceeded: 120 requests per 60 seconds for this workspace; retry in ${t} seconds.`, data: null });
      expect(parseRateLimit(r.headers.get('ratelimit'))).toEqual({ policy: 'workspace', r: 0, t });
      expect(r.headers.get('retry-after')).toBe(String(t));
      expect(t).toBeGreaterThanOrEqual(1);
      expect(t).toBeLessThanOrEqual(60);
    }

    const others = await spread(3, (instance) => me(instance, quiet.key));
    // Sent at once, they reach Redis in any order: each takes one of the next three slots.
    expect(others.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(others.map((r) => parseRateLimit(r.headers.get('ratelimit')).r).sort((a, b) => b - a)).toEqual([119, 118, 117]);
  });

  it('count failed authentications of one address across instances: 30 answer 401, the rest 429 with the client policy', async () => {
    // Every test here comes from 127.0.0.1: this one starts from no failure counted, and leaves
    // none counted for the tests after it, which expect their own 401s.
    await redis.forgetAll();
    onTestFinished(() => redis.forgetAll());
    const unknown = createSecretToken(API_KEY_PREFIX);
    const responses = await spread(45, (instance) => me(instance, unknown));
    expect(responses.filter((r) => r.status === 401)).toHaveLength(CLIENT_QUOTA);
    const throttled = responses.filter((r) => r.status === 429);
    expect(throttled).toHaveLength(45 - CLIENT_QUOTA);
    for (const r of throttled) expect(r.headers.get('ratelimit-policy')).toBe(`"client";q=${CLIENT_QUOTA};w=60`);
  });

  it('while Redis is down answer 503 (5030) with Retry-After and /readyz 503 naming redis, never a 500 or an admission; serve again once it is back', async () => {
    const ws = await createTestWorkspace(admin);
    expect((await me(instances[0]!, ws.key)).status).toBe(200);

    await redis.stop();
    try {
      const during = await spread(9, (instance, i) => (i % 3 === 2 ? me(instance, 'wsk_live_not-a-key') : me(instance, ws.key)));
      for (const r of during) {
        expect([r.status, r.body]).toEqual([503, {
          code: 5030,
          messages: 'The rate limit cannot be checked now (its store, Redis, does not answer); nothing was done. Retry after 1 second.',
          data: null,
        }]);
        expect(r.headers.get('retry-after')).toBe('1');
        expect(parseRateLimit(r.headers.get('ratelimit'))).toMatchObject({ r: 0, t: 1 });
      }
      const ready = await spread(3, (instance) => send(instance.url, { path: '/readyz' }));
      for (const r of ready) {
        expect([r.status, r.body]).toEqual([503, { code: 5030, messages: 'Not ready: redis does not answer.', data: null }]);
      }
    } finally {
      await redis.start();
    }

    // The connections come back by themselves.
    for (const instance of instances) {
      let res = await send(instance.url, { path: '/readyz' });
      const deadline = Date.now() + 10_000;
      while (res.status !== 200 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        res = await send(instance.url, { path: '/readyz' });
      }
      expect(res.status).toBe(200);
      expect((await me(instance, ws.key)).status).toBe(200);
    }
  });

  it('when Redis stops answering without closing the connection, answer 503 after the command timeout, and 200 once it answers again', async () => {
    const ws = await createTestWorkspace(admin);
    redis.pause();
    let during: ObservedResponse[];
    try {
      during = await spread(3, (instance) => me(instance, ws.key));
    } finally {
      redis.resume();
    }
    expect(during.map((r) => [r.status, (r.body as { code: number }).code, r.headers.get('retry-after')])).toEqual(Array(3).fill([503, 5030, '1']));
    const after = await spread(3, (instance) => me(instance, ws.key));
    expect(after.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  /** Status and code of GET /api/v1/me with `key` on each instance, in turn. */
  const meOnEach = async (key: string) => {
    const answers = [];
    for (const instance of instances) {
      const r = await me(instance, key);
      answers.push([r.status, (r.body as { code: number }).code]);
    }
    return answers;
  };

  it('refuse a key revoked through one instance on its next request to every instance (401, 4022)', async () => {
    const ws = await createTestWorkspace(admin);
    const { token } = await createTestMemberToken(admin, ws);
    expect(await meOnEach(ws.key)).toEqual(Array(3).fill([200, 4020]));

    const revoked = await adminClient(instances[0]!.url, ws.workspaceId, token)({ method: 'DELETE', path: `/api-keys/${ws.keyId}` });
    expect(revoked.status).toBe(200);
    expect(await meOnEach(ws.key)).toEqual(Array(3).fill([401, 4022]));
  });

  it('refuse a removed member\'s keys and member tokens on every instance once one instance removed them', async () => {
    const ws = await createTestWorkspace(admin);
    const { token: ownerToken } = await createTestMemberToken(admin, ws);
    const memberId = await createTestMember(admin, ws, 'owner');
    const key = await createTestKey(admin, ws, { userId: memberId });
    const { token: memberToken } = await createTestMemberToken(admin, ws, memberId);
    const membersAs = (instance: RunningServer, token: string) => adminClient(instance.url, ws.workspaceId, token)({ path: '/members' });
    expect(await meOnEach(key.key)).toEqual(Array(3).fill([200, 4020]));
    for (const instance of instances) expect((await membersAs(instance, memberToken)).status).toBe(200);

    const removed = await adminClient(instances[1]!.url, ws.workspaceId, ownerToken)({ method: 'DELETE', path: `/members/${memberId}` });
    expect(removed.status).toBe(200);
    expect(await meOnEach(key.key)).toEqual(Array(3).fill([401, 4022]));
    for (const instance of instances) expect((await membersAs(instance, memberToken)).status).toBe(401);
  });
});
