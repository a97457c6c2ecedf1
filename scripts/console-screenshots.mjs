// The pictures of docs/owners.md: the console's pages in headless Chromium over a throwaway
// workspace, written to docs/images/console-*.png. Runs the built service (`npm run build` first).
//   node scripts/console-screenshots.mjs
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { root } from './run-tool.mjs';

const dist = (file) => import(path.join(root, 'dist', file));
const { createApp } = await dist('app.js');
const { createExpressServer } = await dist('http/express-server.js');
const { openSqliteStore } = await dist('store/index.js');
const { createMemberToken } = await dist('keys/member-tokens.js');
const { createApiKey } = await dist('keys/api-keys.js');
const { createDeliveryDispatcher } = await dist('webhooks/delivery/index.js');
const { SAMPLE_EVENT_DATA } = await dist('webhooks/delivery/samples.js');

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
const DAY_MS = 86_400_000;

const folder = mkdtempSync(path.join(tmpdir(), 'console-screenshots-'));
const store = openSqliteStore(path.join(folder, 'workspace.db'));
const logger = pino({ level: 'silent' });
const now = new Date();
const at = now.toISOString();

// A workspace as an owner would have it after a few weeks: keys, a teammate, a webhook with a failed delivery.
const workspaceId = randomUUID();
const ownerId = randomUUID();
const colleagueId = randomUUID();
await store.accounts.insertWorkspace({ id: workspaceId, name: 'Acme Analytics', subscription_status: 'active', created_at: at });
await store.accounts.insertUser({ id: ownerId, email: 'dana@acme.example', name: 'Dana Owner', created_at: at });
await store.accounts.insertUser({ id: colleagueId, email: 'sam@acme.example', name: 'Sam Analyst', created_at: at });
await store.accounts.upsertMembership(workspaceId, ownerId, 'owner', at);
await store.accounts.upsertMembership(workspaceId, colleagueId, 'member', at);
await createApiKey(store, { workspaceId, userId: ownerId, name: 'Reporting dashboard' });
await createApiKey(store, { workspaceId, userId: ownerId, name: 'Data warehouse sync', scopes: ['visibility:read', 'content:read'] });
const { token } = await createMemberToken(store, { workspaceId, userId: ownerId, name: 'Console' });
const today = Math.floor(now.getTime() / DAY_MS);
await store.workspaceProfile.addApiRequests(Array.from({ length: 30 }, (_, i) => [workspaceId, today - 29 + i, 400 + Math.round(300 * Math.sin(i / 3) + 10 * i)]));

let received = 0;
const receiver = createServer((req, res) => {
  received += 1;
  req.resume();
  req.on('end', () => res.writeHead(503, { 'content-type': 'text/plain' }).end('Service temporarily unavailable'));
});
const receiverUrl = await listen(receiver);

const app = await createApp({ store, logger, allowPrivateWebhookTargets: true });
const server = createExpressServer(app);
const base = await listen(server);
const dispatcher = createDeliveryDispatcher({
  store, logger,
  config: { allowPrivate: true, timeoutMs: 2_000, retryScheduleMs: [], pollIntervalMs: 20, leaseMs: 10_000, perWebhookConcurrency: 2, maxConcurrency: 4, disableAfterFailures: 10, shutdownGraceMs: 100 },
});
dispatcher.start();

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
const shots = [];
async function shot(name) {
  const file = path.join(root, 'docs', 'images', `console-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  shots.push(`${path.relative(root, file)} ${Math.round(statSync(file).size / 1024)} KB`);
}

try {
  await page.goto(`${base}/console/sign-in`);
  await shot('sign-in');
  await page.fill('#token', token);
  await Promise.all([page.waitForURL(`${base}/console`), page.click('button:has-text("Sign in")')]);
  await shot('overview');
  await page.goto(`${base}/console/keys`);
  await shot('keys');
  await page.goto(`${base}/console/webhooks`);
  await page.fill('#new-url', `${receiverUrl}/hooks/acme`);
  await page.fill('#new-name', 'Warehouse events');
  await page.check('input[name="events"][value="content.status_updated"]');
  await page.click('button:has-text("Create webhook")');
  await page.click('a:has-text("Open the webhook")');
  const webhookPage = page.url();
  await store.webhookDeliveries.enqueueEvent({ workspaceId, type: 'content.status_updated', data: SAMPLE_EVENT_DATA['content.status_updated'] });
  for (let i = 0; i < 200 && received === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  await dispatcher.drain();
  await page.goto(webhookPage);
  await shot('webhook');
  await page.click('section[aria-labelledby="deliveries"] table a');
  await shot('delivery');
  await page.goto(`${base}/console/members`);
  await shot('members');
  for (const section of ['audit']) {
    const answer = await page.goto(`${base}/console/${section}`);
    if (answer?.ok()) await shot(section);
  }
  console.log(shots.join('\n'));
} finally {
  await browser.close();
  await dispatcher.stop();
  server.close();
  receiver.close();
  await store.close();
  rmSync(folder, { recursive: true, force: true });
}
