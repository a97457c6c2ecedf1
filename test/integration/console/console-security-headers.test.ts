import { describe, expect, it } from 'vitest';
import { ConsoleClient, consoleMember, csrfOf, type ConsolePage } from '../../support/console-client.js';
import { CONSOLE_CSP } from '../../../src/console/security-headers.js';

function expectConsoleHeaders(what: string, page: ConsolePage): void {
  expect({
    what,
    csp: page.headers.get('content-security-policy'),
    nosniff: page.headers.get('x-content-type-options'),
    referrer: page.headers.get('referrer-policy'),
    cache: page.headers.get('cache-control'),
  }).toEqual({ what, csp: CONSOLE_CSP, nosniff: 'nosniff', referrer: 'no-referrer', cache: 'no-store' });
}

/** Script or style the CSP would refuse: inline elements, event-handler attributes, style attributes, javascript: URLs. */
function inlineCode(html: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*>/gi)) if (!/\bsrc="\/console\/assets\/console\.js"/.test(m[0])) found.push(m[0]);
  for (const m of html.matchAll(/<script\b[^>]*>([^<]+)<\/script>/gi)) found.push(m[0]);
  for (const m of html.matchAll(/<style\b/gi)) found.push(m[0]);
  for (const m of html.matchAll(/\s(on[a-z]+|style)\s*=/gi)) found.push(m[0]);
  for (const m of html.matchAll(/javascript:/gi)) found.push(m[0]);
  return found;
}

describe('console: security headers and no inline code', () => {
  it('sends the CSP without unsafe-inline, nosniff, no-referrer and no-store on every console answer, and serves no inline script or style', async () => {
    const { server, ws, token, browser } = await consoleMember({ signIn: false });
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');

    const outside: Array<[string, ConsolePage]> = [
      ['sign-in', await browser.get('/console/sign-in')],
      ['a page without a session', await new ConsoleClient(server.url).get('/console/keys')],
      ['a link page', await browser.get('/console/link/wsl_live_unknown')],
      ['the script', await browser.get('/console/assets/console.js')],
      ['the stylesheet', await browser.get('/console/assets/console.css')],
      ['an unknown page', await browser.get('/console/nothing-here')],
      ['a refused sign-in', await browser.post('/console/sign-in', { token })],
    ];
    const signedIn = await browser.signInWithToken(token);
    const inside: Array<[string, ConsolePage]> = [['the sign-in redirect', signedIn]];
    for (const path of ['/console', '/console/keys', `/console/keys/${ws.keyId}`, `/console/keys/${ws.keyId}/revoke`, '/console/webhooks', '/console/members',
      `/console/members/${ws.ownerId}/remove`, '/console/webhooks/00000000-0000-4000-8000-000000000000']) {
      inside.push([path, await browser.get(path)]);
    }
    const keys = inside.find(([p]) => p === '/console/keys')![1];
    inside.push(['a refused write', await browser.post('/console/keys', { name: 'no csrf' })]);
    inside.push(['a created key', await browser.post('/console/keys', { csrf: csrfOf(keys.html), name: 'Shown once' })]);

    for (const [what, page] of [...outside, ...inside]) {
      expectConsoleHeaders(what, page);
      if (page.headers.get('content-type')?.startsWith('text/html')) expect({ what, inline: inlineCode(page.html) }).toEqual({ what, inline: [] });
    }
    expect(outside.find(([w]) => w === 'the script')![1].headers.get('content-type')).toMatch(/^text\/javascript/);
  });
});
