import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createTestMember, createTestWorkspace, type TestWorkspace } from '../support/accounts.js';
import { createTestMemberToken, type AdminClient } from '../support/admin.js';
import { consoleMember } from '../support/console-client.js';
import { launchChromium, seriousAccessibilityViolations, watchedPage } from '../support/browser.js';
import { useTestServer } from '../support/test-server.js';
import { answer, startReceiver, type TestReceiver } from '../support/webhook-receiver.js';
import { silentLogger, testDeliveryConfig } from '../support/webhooks.js';
import { until } from '../support/wait.js';
import { runCliInProcess } from '../cli/run-cli.js';
import { createDeliveryDispatcher, type DeliveryDispatcher } from '../../src/webhooks/delivery/index.js';
import { SAMPLE_EVENT_DATA } from '../../src/webhooks/delivery/samples.js';

// The owners' console in headless Chromium, as an owner uses it: every page checked by axe-core for
// serious and critical accessibility problems, and any Content-Security-Policy violation, console
// error or page error fails the file.

describe('the console in headless Chromium', () => {
  const server = useTestServer({ allowPrivateWebhookTargets: true });
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let ws: TestWorkspace;
  let ownerToken: string;
  let api: AdminClient;
  let colleagueId: string;
  let receiver: TestReceiver;
  let receiverUp = false;
  let dispatcher: DeliveryDispatcher;
  const checkedPages: string[] = [];

  /** axe-core over the page as it is now; each page checked once, by its path. */
  async function accessible(): Promise<void> {
    checkedPages.push(new URL(page.url()).pathname);
    expect({ page: page.url(), violations: await seriousAccessibilityViolations(page) }).toEqual({ page: page.url(), violations: [] });
  }

  async function heading(): Promise<string> {
    return (await page.textContent('h1'))?.trim() ?? '';
  }

  beforeAll(async () => {
    // Signed in through the page by the first test, as a person signs in.
    ({ ws, token: ownerToken, api } = await consoleMember({ on: server, name: 'Acme Analytics', signIn: false }));
    colleagueId = await createTestMember(server.store, ws, 'owner');
    receiver = await startReceiver(() => (receiverUp ? answer(200, 'received') : answer(503, 'receiver down')));
    dispatcher = createDeliveryDispatcher({ store: server.store, logger: silentLogger, config: testDeliveryConfig({ retryScheduleMs: [] }) });
    dispatcher.start();
    browser = await launchChromium();
    ({ page, problems } = await watchedPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] }));
  }, 90_000);

  afterAll(async () => {
    await dispatcher?.stop();
    await browser?.close();
    await receiver?.close();
  });

  it('signs an owner in with a member token', async () => {
    await page.goto(`${server.url}/console`);
    expect(await heading()).toBe('Sign in');
    await accessible();
    await page.fill('#token', ownerToken);
    await Promise.all([page.waitForURL(`${server.url}/console`), page.click('button:has-text("Sign in")')]);
    expect(await heading()).toBe('Overview');
    expect(await page.textContent('main')).toContain('Acme Analytics');
    await accessible();
    const cookie = (await page.context().cookies()).find((c) => c.name === '__Host-wsapi_console');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
  });

  let keyId: string;
  it('creates a key, copies it, and never sees it again', async () => {
    await page.click('nav a:has-text("API keys")');
    expect(await heading()).toBe('API keys');
    await accessible();
    await page.fill('#key-name', 'Dashboard');
    await page.uncheck('input[name="scopes"][value="iq:read"]');
    await Promise.all([page.waitForURL('**/console/keys'), page.click('button:has-text("Create key")')]);
    const key = (await page.textContent('#new-key-value'))!.trim();
    expect(key).toMatch(/^wsk_live_[A-Za-z0-9]{38}$/);
    await accessible();
    await page.click('button:has-text("Copy")');
    await page.waitForSelector('button.copy:has-text("Copied")');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);

    await page.goto(`${server.url}/console/keys`);
    expect(await page.content()).not.toContain(key);
    expect(await page.textContent('table')).toContain('Dashboard');
    const listed = (await api({ path: '/api-keys' })).body as { data: { items: Array<{ id: string; name: string; scopes: string[] }> } };
    const created = listed.data.items.find((k) => k.name === 'Dashboard')!;
    expect(created.scopes).toEqual(['workspace:read', 'visibility:read', 'contentmap:read', 'content:read']);
    keyId = created.id;
  });

  it('narrows the key and revokes it after confirming', async () => {
    await page.click(`a[href="/console/keys/${keyId}"]`);
    expect(await heading()).toBe('API keys');
    await accessible();
    await page.uncheck('input[name="scopes"][value="content:read"]');
    await Promise.all([page.waitForURL('**/console/keys?done=key-updated'), page.click('button:has-text("Save")')]);
    expect(await page.textContent('[role="status"]')).toContain('The key was saved.');
    await page.click(`a[href="/console/keys/${keyId}/revoke"]`);
    await accessible();
    await Promise.all([page.waitForURL('**/console/keys?done=key-revoked'), page.click('button:has-text("Revoke the key")')]);
    const listed = (await api({ path: '/api-keys' })).body as { data: { items: Array<{ id: string; scopes: string[]; revoked_at: string | null }> } };
    const key = listed.data.items.find((k) => k.id === keyId)!;
    expect(key.scopes).toEqual(['workspace:read', 'visibility:read', 'contentmap:read']);
    expect(key.revoked_at).not.toBeNull();
  });

  let webhookId: string;
  it('creates a webhook and sends a test event to a receiver on loopback', async () => {
    await page.click('nav a:has-text("Webhooks")');
    await accessible();
    await page.fill('#new-url', receiver.url);
    await page.fill('#new-name', 'Warehouse');
    await page.check('input[name="events"][value="content.status_updated"]');
    await page.click('button:has-text("Create webhook")');
    expect(await page.textContent('#secret-value')).toMatch(/^whsec_/);
    await accessible();
    await page.click('a:has-text("Open the webhook")');
    webhookId = new URL(page.url()).pathname.split('/').pop()!;
    await accessible();
    await page.selectOption('#test-event', 'content.status_updated');
    receiverUp = true;
    await page.click('button:has-text("Send test event")');
    expect(await page.textContent('[role="status"]')).toContain('Test event content.status_updated delivered');
    expect(receiver.requests).toHaveLength(1);
    expect(JSON.parse(receiver.requests[0]!.rawBody)).toMatchObject({ event: 'content.status_updated', is_test: true });
  });

  it('reads a failed attempt\'s request and response, and redelivers it', async () => {
    receiverUp = false;
    await server.store.webhookDeliveries.enqueueEvent({ workspaceId: ws.workspaceId, type: 'content.status_updated', data: SAMPLE_EVENT_DATA['content.status_updated'] });
    await until(() => receiver.requests.length === 2, 10_000, 'the failing attempt');
    await dispatcher.drain();
    await page.goto(`${server.url}/console/webhooks/${webhookId}?status=failed#deliveries`);
    await page.click('#deliveries + nav + table a, section[aria-labelledby="deliveries"] table a');
    expect(await heading()).toBe('Delivery of content.status_updated');
    expect(await page.textContent('main')).toContain('receiver down');
    await accessible();
    receiverUp = true;
    await Promise.all([page.waitForURL('**?done=delivery-redelivered'), page.click('button:has-text("Redeliver")')]);
    await until(() => receiver.requests.length === 3, 10_000, 'the redelivery');
    await dispatcher.drain();
    await page.reload();
    expect(await page.textContent('main')).toMatch(/recovered[\s\S]*received/);
  });

  it('rotates the secret after the confirm dialog, showing the grace period', async () => {
    await page.goto(`${server.url}/console/webhooks/${webhookId}`);
    page.once('dialog', (d) => void d.accept());
    await page.click('button:has-text("Rotate secret")');
    expect(await page.textContent('#secret-value')).toMatch(/^whsec_/);
    expect(await page.textContent('main')).toContain('The previous secret keeps verifying until');
  });

  it('changes a member\'s role', async () => {
    await page.click('nav a:has-text("Members")');
    await accessible();
    await Promise.all([page.waitForURL('**/console/members?done=member-updated'),
      page.click(`form[action="/console/members/${colleagueId}"] button`)]);
    const members = (await api({ path: '/members' })).body as { data: { items: Array<{ user_id: string; role: string }> } };
    expect(members.data.items.find((m) => m.user_id === colleagueId)?.role).toBe('member');
    await page.click(`a[href="/console/members/${colleagueId}/remove"]`);
    expect(await page.textContent('main')).toContain('revoked for good');
    await accessible();
  });

  it('refuses a form whose CSRF token was taken out', async () => {
    await page.goto(`${server.url}/console/keys`);
    await page.fill('#key-name', 'Forged');
    await page.evaluate(`document.querySelectorAll('form[action="/console/keys"] input[name="csrf"]').forEach((e) => e.remove())`);
    await page.click('button:has-text("Create key")');
    expect(await page.textContent('[role="alert"]')).toContain('CSRF token is missing or wrong');
    const listed = (await api({ path: '/api-keys' })).body as { data: { items: Array<{ name: string }> } };
    expect(listed.data.items.some((k) => k.name === 'Forged')).toBe(false);
  });

  it('shows another workspace\'s key as not found', async () => {
    const other = await createTestWorkspace(server.store);
    const answer_ = await page.goto(`${server.url}/console/keys/${other.keyId}`);
    expect(answer_?.status()).toBe(404);
    expect(await page.textContent('[role="alert"]')).toContain('API key not found.');
  });

  it('reads the audit log, filtered by action, and the usage chart on the overview', async () => {
    await page.click('nav a:has-text("Audit log")');
    expect(await heading()).toBe('Audit log');
    await accessible();
    await page.selectOption('#audit-action', 'api_key.revoked');
    await Promise.all([page.waitForURL('**/console/audit?**'), page.click('button:has-text("Filter")')]);
    const rows = await page.$$eval('tbody tr', (trs) => trs.map((tr) => (tr as unknown as { innerText: string }).innerText));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('api_key.revoked');
    expect(rows[0]).toContain('Test Owner');
    await page.click('nav a:has-text("Overview")');
    expect(await page.getAttribute('svg.chart', 'role')).toBe('img');
    expect(await page.textContent('svg.chart desc')).toMatch(/requests from \d{4}-\d{2}-\d{2} to/);
  });

  it('signs out by POST; the console then asks to sign in', async () => {
    await page.goto(`${server.url}/console`);
    await Promise.all([page.waitForURL('**/console/sign-in'), page.click('button:has-text("Sign out")')]);
    await page.goto(`${server.url}/console/keys`);
    expect(await heading()).toBe('Sign in');
  });

  it('signs in with a link the operator printed: a button first, then the session', async () => {
    delete process.env.PUBLIC_BASE_URL;
    const withoutBase = await runCliInProcess(['console', 'link', '--workspace', ws.workspaceId, '--user', ws.ownerId, '--db', server.address]);
    expect(withoutBase).toMatchObject({ code: 1, stdout: '' });
    expect(withoutBase.stderr).toContain('error: PUBLIC_BASE_URL is not set');
    process.env.PUBLIC_BASE_URL = server.url;
    const printed = await runCliInProcess(['console', 'link', '--workspace', ws.workspaceId, '--user', ws.ownerId, '--db', server.address, '--json']);
    delete process.env.PUBLIC_BASE_URL;
    expect(printed.code).toBe(0);
    const { url } = JSON.parse(printed.stdout) as { url: string };
    expect(url).toMatch(new RegExp(`^${server.url}/console/link/wsl_live_`));
    await page.goto(url);
    expect(await heading()).toBe('Sign in with a link');
    await accessible();
    await Promise.all([page.waitForURL(`${server.url}/console`), page.click('button:has-text("Sign in")')]);
    expect(await heading()).toBe('Overview');
    await page.click('button:has-text("Sign out")');
    await page.goto(url);
    await Promise.all([page.waitForLoadState(), page.click('button:has-text("Sign in")')]);
    expect(await page.textContent('[role="alert"]')).toContain('already used');
  });

  it('shows a member what they may read, and refuses the rest with the API\'s message', async () => {
    const memberId = await createTestMember(server.store, ws, 'member');
    const { token } = await createTestMemberToken(server.store, ws, memberId);
    const { page: memberPage, problems: memberProblems } = await watchedPage(browser);
    await memberPage.goto(`${server.url}/console/sign-in`);
    await memberPage.fill('#token', token);
    await Promise.all([memberPage.waitForURL(`${server.url}/console`), memberPage.click('button:has-text("Sign in")')]);
    await memberPage.goto(`${server.url}/console/members`);
    expect(await memberPage.textContent('table')).toContain('Test Owner');
    expect(await memberPage.$('a:has-text("Remove…")')).toBeNull();
    await memberPage.goto(`${server.url}/console/keys`);
    expect(await memberPage.textContent('[role="alert"]')).toContain('Only owners of the workspace can do this; your role is member.');
    expect(memberProblems.filter((p) => !p.includes('403'))).toEqual([]);
    await memberPage.context().close();
  });

  it('refuses a revoked token at sign-in', async () => {
    const { token, id } = await createTestMemberToken(server.store, ws);
    await server.store.memberTokens.revoke(id, new Date().toISOString());
    await page.goto(`${server.url}/console/sign-in`);
    await page.fill('#token', token);
    await page.click('button:has-text("Sign in")');
    expect(await page.textContent('[role="alert"]')).toContain('invalid or revoked');
  });

  it('works without JavaScript: sign-in and a key created from the plain form', async () => {
    const { page: plain, problems: plainProblems } = await watchedPage(browser, { javaScriptEnabled: false });
    await plain.goto(`${server.url}/console/sign-in`);
    await plain.fill('#token', ownerToken);
    await Promise.all([plain.waitForURL(`${server.url}/console`), plain.click('button:has-text("Sign in")')]);
    await plain.goto(`${server.url}/console/keys`);
    await plain.fill('#key-name', 'Without script');
    await plain.click('button:has-text("Create key")');
    expect(await plain.textContent('#new-key-value')).toMatch(/^wsk_live_/);
    expect(await plain.isVisible('button:has-text("Copy")')).toBe(false);
    expect(plainProblems).toEqual([]);
    await plain.context().close();
  });

  it('met no CSP violation, console error or page error on any page', () => {
    // The refusals above answer 4xx on purpose; Chromium logs each failed page load as an error.
    expect(problems.filter((p) => !/Failed to load resource: the server responded with a status of (401|403|404|409|422)/.test(p))).toEqual([]);
    expect(new Set(checkedPages).size).toBeGreaterThanOrEqual(10);
  });
});
