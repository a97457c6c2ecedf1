import { describe, expect, it } from 'vitest';
import { createTestMember, createTestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { ConsoleClient, consoleMember, csrfOf, textOf } from '../../support/console-client.js';
import { send } from '../../support/http.js';
import { startTestServerForThisTest } from '../../support/test-server.js';
import { createSignInLink } from '../../../src/keys/console-sessions.js';
import { importLines } from '../../../src/import/import-ndjson.js';
import { planLine } from '../../support/workspace-records.js';

const DAY_MS = 86_400_000;

describe('console: overview and audit log', () => {
  it('names the workspace\'s plan, its allowances and its billing period, or says none is on record', async () => {
    const { server, ws, browser } = await consoleMember();
    expect(textOf((await browser.get('/console')).html)).toContain('Plan None on record');
    await importLines(server.store, ws.workspaceId, [planLine({ name: 'Growth', tracked_prompts_limit: 100, articles_per_month_limit: null, period_start: '2026-11-01', period_end: '2026-11-30' }).line]);
    const text = textOf((await browser.get('/console')).html);
    expect(text).toContain('Plan Growth (subscription active)');
    expect(text).toContain('Allowances 100 tracked prompts, unlimited articles a month');
    expect(text).toContain('Billing period 2026-11-01 to 2026-11-30');
  });

  it('draws the last 30 days of requests as an SVG with its figures in words, and the rate limit\'s headroom', async () => {
    // Signed in after the requests below, so the chart and the headroom count those alone.
    const { server, ws, browser, token } = await consoleMember({ signIn: false });
    const today = Math.floor(Date.now() / DAY_MS);
    await server.store.workspaceProfile.addApiRequests([[ws.workspaceId, today - 2, 40], [ws.workspaceId, today, 7]]);
    for (let i = 0; i < 3; i += 1) expect((await send(server.url, { path: '/api/v1/me', key: ws.key })).status).toBe(200);
    await browser.signInWithToken(token);

    const overview = await browser.get('/console');
    expect(overview.status).toBe(200);
    const svg = /<svg class="chart"[\s\S]*?<\/svg>/.exec(overview.html)?.[0] ?? '';
    expect(svg).toContain('role="img"');
    expect(svg.match(/<rect class="bar"/g)).toHaveLength(30);
    const busiest = new Date((today - 2) * DAY_MS).toISOString().slice(0, 10);
    expect(textOf(overview.html)).toContain(`the busiest day was ${busiest} with 40.`);
    expect(overview.html).not.toContain('<table');
    // Three requests of the read API spent; the console's own calls none.
    expect(overview.html).toMatch(/<meter id="headroom-meter" class="meter" min="0" max="120"[^>]* value="117">/);
    expect(textOf(overview.html)).toContain('117 of 120 left');
  });

  it('records sign-ins, sign-outs and refused sign-ins, and the audit page filters them by actor, action and date', async () => {
    const server = await startTestServerForThisTest();
    const ws = await createTestWorkspace(server.store);
    const memberId = await createTestMember(server.store, ws, 'member');
    const { token } = await createTestMemberToken(server.store, ws);
    const revoked = await createTestMemberToken(server.store, ws, memberId);
    await server.store.memberTokens.revoke(revoked.id, new Date().toISOString());

    expect((await new ConsoleClient(server.url).signInWithToken(revoked.token)).status).toBe(401);
    const link = await createSignInLink(server.store, { workspaceId: ws.workspaceId, userId: ws.ownerId });
    const viaLink = new ConsoleClient(server.url);
    const linkPage = await viaLink.get(`/console/link/${link.token}`);
    expect((await viaLink.post(`/console/link/${link.token}`, { csrf: csrfOf(linkPage.html) })).status).toBe(303);
    const spent = new ConsoleClient(server.url);
    expect((await spent.post(`/console/link/${link.token}`, { csrf: csrfOf((await spent.get(`/console/link/${link.token}`)).html) })).status).toBe(401);
    const overview = await viaLink.get('/console');
    expect((await viaLink.post('/console/sign-out', { csrf: csrfOf(overview.html) })).status).toBe(303);

    const browser = new ConsoleClient(server.url);
    await browser.signInWithToken(token);
    const all = textOf((await browser.get('/console/audit')).html);
    expect(all).toMatch(/console\.signed_in console_session [0-9a-f-]{36} succeeded 127\.0\.0\.1/);
    expect(all).toContain('console.signed_out');
    expect(all).toContain('operator (command line) console_link.created console_link');
    expect(all.match(/anonymous console\.signed_in — failed/g)).toHaveLength(2);

    const failed = textOf((await browser.get('/console/audit?actor=anonymous&action=console.signed_in')).html);
    expect(failed.match(/console\.signed_in/g)?.length).toBeGreaterThanOrEqual(2);
    expect(failed).not.toContain('succeeded');
    const signOuts = textOf((await browser.get(`/console/audit?actor=${ws.ownerId}&action=console.signed_out`)).html);
    expect(signOuts.match(/console\.signed_out console_session/g)).toHaveLength(1);
    const tomorrow = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
    expect(textOf((await browser.get(`/console/audit?from=${tomorrow}`)).html)).toContain('No entries match these filters.');
    // Nothing in the log carries a secret.
    const rows = await server.store.auditLog.listPage(ws.workspaceId, {}, 100);
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(JSON.stringify(rows)).not.toMatch(/wsl_live_|wss_live_|wsm_live_/);
  });

  it('shows a member the API\'s refusal of the audit log', async () => {
    const { browser } = await consoleMember({ role: 'member' });
    const page = await browser.get('/console/audit');
    expect(page.status).toBe(403);
    expect(textOf(page.html)).toContain('Only owners of the workspace can do this; your role is member.');
    expect((await browser.get('/console')).status).toBe(200);
  });
});
