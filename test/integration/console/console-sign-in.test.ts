import { describe, expect, it } from 'vitest';
import { createTestMember, createTestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { ConsoleClient, consoleMember, csrfOf, textOf } from '../../support/console-client.js';
import { send } from '../../support/http.js';
import { startTestServerForThisTest } from '../../support/test-server.js';
import { createSignInLink } from '../../../src/keys/console-sessions.js';
import { SlidingLogLimiter } from '../../../src/http/rate-limit/sliding-log-limiter.js';

const SESSION = '__Host-wsapi_console';

describe('console sign-in with a member token', () => {
  it('starts a session in a __Host- cookie (HttpOnly, Secure, SameSite=Strict, Path=/) and shows the overview', async () => {
    const { token, browser } = await consoleMember({ name: 'Acme', signIn: false });

    const signedIn = await browser.signInWithToken(token);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe('/console');
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`));
    expect(cookie).toMatch(/^__Host-wsapi_console=wss_live_[A-Za-z0-9]{38}; Path=\/; Secure; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(cookie).not.toContain(token);

    const overview = await browser.get('/console');
    expect(overview.status).toBe(200);
    expect(textOf(overview.html)).toContain('Acme');
    expect(textOf(overview.html)).toContain('Test Owner (owner)');
  });

  it('refuses a sign-in form without its CSRF token, or with another browser\'s (403), and starts no session', async () => {
    const { server, token, browser } = await consoleMember({ signIn: false });
    await browser.get('/console/sign-in');

    const without = await browser.post('/console/sign-in', { token });
    expect(without.status).toBe(403);
    expect(textOf(without.html)).toContain('CSRF token is missing or wrong');

    const other = new ConsoleClient(server.url);
    const othersToken = csrfOf((await other.get('/console/sign-in')).html);
    const foreign = await browser.post('/console/sign-in', { token, csrf: othersToken });
    expect(foreign.status).toBe(403);
    expect(browser.cookies.has(SESSION)).toBe(false);
  });

  it('refuses a bad, revoked or orphaned token with 401, and past the per-address budget with 429', async () => {
    const server = await startTestServerForThisTest({
      clientLimiter: new SlidingLogLimiter({ policy: 'client', quota: 3, windowSeconds: 60 }),
    });
    const ws = await createTestWorkspace(server.store);
    const browser = new ConsoleClient(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await browser.signInWithToken('wsm_live_not-a-token')).status);
    const throttled = await browser.signInWithToken('wsm_live_not-a-token');
    expect(statuses).toEqual([401, 401, 401]);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(textOf(throttled.html)).toContain('Too many failed authentications from this address');
    // The API's failed authentications share the budget: the next bad key is throttled too.
    const api = await send(server.url, { path: '/api/v1/me', key: 'wsk_live_bad' });
    expect(api.status).toBe(429);
    expect(ws.workspaceId).toBeTruthy();
  });

  it('ends the session at once when its token is revoked, its member removed, or its role changed', async () => {
    const server = await startTestServerForThisTest();
    const ws = await createTestWorkspace(server.store);
    const memberId = await createTestMember(server.store, ws, 'owner');
    const cases: Array<[string, (tokenId: string) => Promise<unknown>, string]> = [
      ['revoked', (id) => server.store.memberTokens.revoke(id, new Date().toISOString()), 'has been revoked'],
      ['demoted', () => server.store.accounts.changeRole(ws.workspaceId, memberId, 'member', new Date().toISOString(), { revokeKeys: false }), 'Your role changed to member'],
      ['removed', () => server.store.accounts.removeMember(ws.workspaceId, memberId, new Date().toISOString()), 'no longer a member'],
    ];
    for (const [what, end, why] of cases) {
      if (what !== 'demoted') await server.store.accounts.upsertMembership(ws.workspaceId, memberId, 'owner', new Date().toISOString());
      const { token, id } = await createTestMemberToken(server.store, ws, memberId);
      const browser = new ConsoleClient(server.url);
      expect((await browser.signInWithToken(token)).status).toBe(303);
      expect((await browser.get('/console/keys')).status).toBe(200);
      await end(id);
      const after = await browser.get('/console/keys');
      expect({ what, status: after.status }).toEqual({ what, status: 401 });
      expect(textOf(after.html)).toContain(why);
      expect(browser.cookies.has(SESSION)).toBe(false);
    }
  });

  it('signs out by POST with the CSRF token; the old cookie no longer opens anything', async () => {
    const { server, browser } = await consoleMember();
    const cookie = browser.cookies.get(SESSION)!;
    const page = await browser.get('/console');

    expect((await browser.post('/console/sign-out', {})).status).toBe(403);
    const out = await browser.post('/console/sign-out', { csrf: csrfOf(page.html) });
    expect(out.status).toBe(303);
    expect(out.location).toBe('/console/sign-in');

    const replayed = await fetch(`${server.url}/console`, { headers: { cookie: `${SESSION}=${cookie}` }, redirect: 'manual' });
    expect(replayed.status).toBe(401);
  });

  it('ends a session idle past CONSOLE_IDLE_TIMEOUT, and any session past CONSOLE_SESSION_LIFETIME', async () => {
    let clock = Date.parse('2026-12-01T10:00:00.000Z');
    const { server, token } = await consoleMember({ server: { now: () => new Date(clock), console: { idleMs: 10 * 60_000, absoluteMs: 60 * 60_000 } }, signIn: false });

    const idle = new ConsoleClient(server.url);
    await idle.signInWithToken(token);
    clock += 9 * 60_000;
    expect((await idle.get('/console')).status).toBe(200);
    clock += 9 * 60_000;
    expect((await idle.get('/console')).status).toBe(200);
    clock += 10 * 60_000;
    const timedOut = await idle.get('/console');
    expect(timedOut.status).toBe(401);
    expect(textOf(timedOut.html)).toContain('after a time without activity');

    const busy = new ConsoleClient(server.url);
    await busy.signInWithToken(token);
    for (let i = 0; i < 6; i += 1) {
      clock += 9 * 60_000;
      expect((await busy.get('/console')).status).toBe(200);
    }
    clock += 9 * 60_000;
    const expired = await busy.get('/console');
    expect(expired.status).toBe(401);
    expect(textOf(expired.html)).toContain('reached its time limit');
  });

  it('refuses sign-in over plain HTTP from another machine; TRUST_PROXY says what came over TLS', async () => {
    const { server, token } = await consoleMember({ server: { http: { trustProxy: ['loopback'] } }, signIn: false });

    const remotePlain = new ConsoleClient(server.url, { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'http' });
    const form = await remotePlain.get('/console/sign-in');
    expect(textOf(form.html)).toContain('Signing in needs HTTPS');
    const refused = await remotePlain.post('/console/sign-in', { csrf: csrfOf(form.html), token });
    expect(refused.status).toBe(403);
    expect(remotePlain.cookies.has(SESSION)).toBe(false);

    const remoteTls = new ConsoleClient(server.url, { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' });
    expect((await remoteTls.signInWithToken(token)).status).toBe(303);
  });
});

describe('console sign-in with a one-time link', () => {
  it('shows a button on GET (a scanner spends nothing), signs in on POST, and works once', async () => {
    const server = await startTestServerForThisTest();
    const ws = await createTestWorkspace(server.store);
    const link = await createSignInLink(server.store, { workspaceId: ws.workspaceId, userId: ws.ownerId });
    const path = `/console/link/${link.token}`;

    const scanner = new ConsoleClient(server.url);
    await scanner.get(path);
    await scanner.get(path);
    const browser = new ConsoleClient(server.url);
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<form method="post" action="${path}"`);

    const signedIn = await browser.post(path, { csrf: csrfOf(page.html) });
    expect(signedIn.status).toBe(303);
    expect((await browser.get('/console/keys')).status).toBe(200);

    const again = new ConsoleClient(server.url);
    const second = await again.post(path, { csrf: csrfOf((await again.get(path)).html) });
    expect(second.status).toBe(401);
    expect(textOf(second.html)).toContain('already used, it expired');
  });

  it('refuses a link past its 10 minutes, and a link without the CSRF token', async () => {
    let clock = Date.parse('2026-12-01T10:00:00.000Z');
    const server = await startTestServerForThisTest({ now: () => new Date(clock) });
    const ws = await createTestWorkspace(server.store);
    const link = await createSignInLink(server.store, { workspaceId: ws.workspaceId, userId: ws.ownerId }, new Date(clock));
    const path = `/console/link/${link.token}`;
    const browser = new ConsoleClient(server.url);
    const page = await browser.get(path);
    expect((await browser.post(path, {})).status).toBe(403);
    clock += 10 * 60_000;
    const late = await browser.post(path, { csrf: csrfOf(page.html) });
    expect(late.status).toBe(401);
    expect(browser.cookies.has(SESSION)).toBe(false);
  });

  it('keeps the link out of the request log', async () => {
    const server = await startTestServerForThisTest();
    const ws = await createTestWorkspace(server.store);
    const link = await createSignInLink(server.store, { workspaceId: ws.workspaceId, userId: ws.ownerId });
    const browser = new ConsoleClient(server.url);
    await browser.get(`/console/link/${link.token}`);
    const lines = server.logLines().join('\n');
    expect(lines).toContain('/console/link/wsl_live_[redacted]');
    expect(lines).not.toContain(link.token);
  });
});

describe('the console session outside the console', () => {
  it('is not a credential of the administration API from outside (401)', async () => {
    const { server, ws, browser } = await consoleMember();
    const res = await send(server.url, { path: `/api/workspace/${ws.workspaceId}/members`, key: browser.cookies.get(SESSION)! });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 4022 });
  });

  it('never spends the workspace\'s rate limit', async () => {
    const { server, ws, browser } = await consoleMember({ server: { rateLimit: { quota: 5, windowSeconds: 60, authFailureQuota: 100 } } });
    for (let i = 0; i < 8; i += 1) expect((await browser.get('/console/keys')).status).toBe(200);
    const api = await send(server.url, { path: '/api/v1/me', key: ws.key });
    expect(api.status).toBe(200);
    expect(api.headers.get('ratelimit')).toContain('r=4');
  });
});
