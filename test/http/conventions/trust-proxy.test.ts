import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretToken } from '../../../src/keys/secret-token.js';
import { API_KEY_PREFIX } from '../../../src/keys/api-keys.js';
import type { TrustProxy } from '../../../src/config.js';
import { send, type ObservedResponse } from '../../support/http.js';
import { startTestServerForThisTest, type TestServer } from '../../support/test-server.js';

const CLIENT_QUOTA = 3;

/** The service with TRUST_PROXY set to `trustProxy`; every request of these tests comes from 127.0.0.1. */
const serverTrusting = (trustProxy: TrustProxy) => startTestServerForThisTest({
  http: { trustProxy },
  rateLimit: { quota: 120, windowSeconds: 60, authFailureQuota: CLIENT_QUOTA },
});

/** A request with a key nobody issued, as forwarded by a proxy for `forwardedFor`. */
const badKeyFrom = (server: TestServer, forwardedFor: string) => send(server.url, {
  path: '/api/v1/me',
  key: createSecretToken(API_KEY_PREFIX),
  headers: { 'x-forwarded-for': forwardedFor, 'x-request-id': randomUUID() },
});

const statuses = (responses: ObservedResponse[]) => responses.map((r) => r.status);

/** The client address the request log recorded for the request with this id. */
function loggedAddress(server: TestServer, res: ObservedResponse): unknown {
  const id = res.headers.get('x-request-id');
  const line = server.logLines().map((l) => JSON.parse(l) as { req?: { id?: string; remote_address?: string } })
    .find((entry) => entry.req?.id === id);
  return line?.req?.remote_address;
}

async function publishedServer(server: TestServer): Promise<unknown> {
  const res = await send(server.url, { path: '/openapi.json', headers: { 'x-forwarded-host': 'api.example.com', 'x-forwarded-proto': 'https' } });
  return (res.body as { servers: Array<{ url: string }> }).servers[0]!.url;
}

describe('TRUST_PROXY', () => {
  it('when unset, ignores forwarded headers: a client cannot dodge the per-address limit by sending X-Forwarded-For', async () => {
    const server = await serverTrusting(false);
    const responses: ObservedResponse[] = [];
    for (let i = 0; i < CLIENT_QUOTA + 2; i++) responses.push(await badKeyFrom(server, `198.51.100.${i + 1}`));
    expect(statuses(responses)).toEqual([401, 401, 401, 429, 429]);
    expect(responses[4]!.headers.get('ratelimit-policy')).toBe(`"client";q=${CLIENT_QUOTA};w=60`);
    expect(loggedAddress(server, responses[0]!)).toBe('127.0.0.1');
    expect(await publishedServer(server)).toBe(server.url);
  });

  it('when it names the proxy (loopback), counts, logs and publishes the client and host that proxy forwarded', async () => {
    const server = await serverTrusting(['loopback']);
    const first: ObservedResponse[] = [];
    for (let i = 0; i < CLIENT_QUOTA + 1; i++) first.push(await badKeyFrom(server, '198.51.100.7'));
    expect(statuses(first)).toEqual([401, 401, 401, 429]);
    // Another client behind the same proxy has its own budget.
    const other = await badKeyFrom(server, '203.0.113.9');
    expect(other.status).toBe(401);
    expect([loggedAddress(server, first[0]!), loggedAddress(server, other)]).toEqual(['198.51.100.7', '203.0.113.9']);
    expect(await publishedServer(server)).toBe('https://api.example.com');
  });

  it('as a number of hops, believes only the address the trusted proxy appended, not what the client wrote before it', async () => {
    const server = await serverTrusting(1);
    const responses: ObservedResponse[] = [];
    for (let i = 0; i < CLIENT_QUOTA + 1; i++) responses.push(await badKeyFrom(server, `10.9.9.${i + 1}, 198.51.100.7`));
    expect(statuses(responses)).toEqual([401, 401, 401, 429]);
    expect(loggedAddress(server, responses[0]!)).toBe('198.51.100.7');
  });

  it('when it names other addresses than the peer, ignores what the peer forwards', async () => {
    const server = await serverTrusting(['10.0.0.0/8', '192.168.0.1']);
    const responses: ObservedResponse[] = [];
    for (let i = 0; i < CLIENT_QUOTA + 1; i++) responses.push(await badKeyFrom(server, `198.51.100.${i + 1}`));
    expect(statuses(responses)).toEqual([401, 401, 401, 429]);
    expect(loggedAddress(server, responses[0]!)).toBe('127.0.0.1');
    expect(await publishedServer(server)).toBe(server.url);
  });
});

describe('the failed-authentication limit, per client network', () => {
  it('counts IPv6 clients by their /64 and IPv4 clients by address, an IPv4-mapped IPv6 address as the IPv4 one, anything else as its text', async () => {
    const server = await serverTrusting(['loopback']);
    const sequentially = async (addresses: string[]) => {
      const responses: ObservedResponse[] = [];
      for (const address of addresses) responses.push(await badKeyFrom(server, address));
      return statuses(responses);
    };
    // Four addresses of one /64: the fourth is over the budget of three.
    expect(await sequentially(['2001:db8:7:1::1', '2001:db8:7:1::2', '2001:db8:7:1:ffff:ffff:ffff:fffe', '2001:0db8:0007:0001:0:0:abc:1'])).toEqual([401, 401, 401, 429]);
    // The next /64 has its own budget.
    expect(await sequentially(['2001:db8:7:2::1'])).toEqual([401]);
    // IPv4: two addresses are two clients, and ::ffff:198.51.100.7 is 198.51.100.7.
    expect(await sequentially(['198.51.100.7', '::ffff:198.51.100.7', '198.51.100.8', '::ffff:c633:6407', '198.51.100.7'])).toEqual([401, 401, 401, 401, 429]);
    // What is not an address (`unknown`, as some proxies write) is counted as the text it is, never a 500.
    expect(await sequentially(['unknown', 'unknown', 'unknown', 'unknown'])).toEqual([401, 401, 401, 429]);
  });
});
