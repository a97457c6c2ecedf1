import { describe, expect, it } from 'vitest';
import { createTestWebhook } from '../../support/webhooks.js';
import type { Resolver } from '../../../src/webhooks/ssrf-guard.js';
import { emit, receiver, startDeliveryWorld, until } from './helpers.js';
import { rowsOf } from '../../support/database-rows.js';

// Names a test DNS answers: public when the webhook was saved, loopback now (DNS rebinding).
const rebindingResolver: Resolver = async (host) => {
  if (host === 'rebind.example.test') return ['127.0.0.1'];
  if (host === 'rebind6.example.test') return ['::1'];
  if (host === 'mixed.example.test') return ['93.184.216.34', '127.0.0.1'];
  if (host === 'mapped.example.test') return ['::ffff:127.0.0.1'];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/** Every spelling of "this machine" (and its neighbours) a webhook row could hold, aimed at the sentinel's port. */
function corpus(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/hooks`,
    `http://localhost:${port}/hooks`,
    `http://LOCALHOST.:${port}/hooks`,
    `http://api.localhost:${port}/hooks`,
    `http://2130706433:${port}/hooks`, // decimal
    `http://0x7f000001:${port}/hooks`, // hex
    `http://0x7f.0x0.0x0.0x1:${port}/hooks`, // hex per part
    `http://0177.0.0.1:${port}/hooks`, // octal
    `http://017700000001:${port}/hooks`, // octal, whole
    `http://127.000.000.001:${port}/hooks`,
    `http://127.1:${port}/hooks`, // short form
    `http://127.0.1.1:${port}/hooks`,
    `http://0.0.0.0:${port}/hooks`,
    `http://0:${port}/hooks`,
    `http://[::1]:${port}/hooks`,
    `http://[0:0:0:0:0:0:0:1]:${port}/hooks`,
    `http://[::]:${port}/hooks`,
    `http://[::ffff:127.0.0.1]:${port}/hooks`, // IPv4-mapped
    `http://[::ffff:7f00:1]:${port}/hooks`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${port}/hooks`,
    `http://[::127.0.0.1]:${port}/hooks`, // IPv4-compatible
    `http://[64:ff9b::7f00:1]:${port}/hooks`, // NAT64
    `http://[2002:7f00:1::]:${port}/hooks`, // 6to4
    `http://[fe80::1]:${port}/hooks`,
    `http://[fd00::1]:${port}/hooks`,
    `http://10.0.0.1:${port}/hooks`,
    `http://172.16.0.1:${port}/hooks`,
    `http://192.168.1.1:${port}/hooks`,
    `http://100.64.0.1:${port}/hooks`,
    `http://169.254.169.254:${port}/latest/meta-data`,
    `http://rebind.example.test:${port}/hooks`,
    `http://rebind6.example.test:${port}/hooks`,
    `http://mixed.example.test:${port}/hooks`,
    `http://mapped.example.test:${port}/hooks`,
    `https://127.0.0.1:${port}/hooks`,
    `https://rebind.example.test:${port}/hooks`,
  ];
}

describe('webhook delivery: SSRF guard at connect time', () => {
  it('when private targets are not allowed, no URL of the corpus gets a connection and each attempt records the refusal', async () => {
    const sentinel = await receiver(undefined, '::');
    const { store, workspace, dispatcher } = await startDeliveryWorld({ allowPrivate: false, retryScheduleMs: [] }, { resolve: rebindingResolver });
    const urls = corpus(sentinel.port);
    for (const url of urls) await createTestWebhook(store, workspace, { url, events: ['content.status_updated'] });
    await emit(store, workspace.workspaceId);
    await dispatcher.drain({ timeoutMs: 10_000 });
    await until(async () => (await store.webhookDeliveries.countPending()) === 0, 5_000, 'all attempted');

    const rows = await rowsOf<{ url: string; status: string; outcome: string; http_status: number | null; error: string }>(store,
      `SELECT w.url, d.status, a.outcome, a.http_status, a.error FROM webhook_deliveries d
       JOIN webhooks w ON w.id = d.webhook_id JOIN webhook_delivery_attempts a ON a.delivery_id = d.id`);
    expect(rows).toHaveLength(urls.length);
    for (const row of rows) {
      expect({ url: row.url, status: row.status, outcome: row.outcome, http_status: row.http_status }).toEqual({
        url: row.url,
        status: 'failed',
        outcome: 'failure',
        http_status: null,
      });
      expect(row.error, row.url).toMatch(/^refused before connecting: /);
    }
    expect(sentinel.connections()).toBe(0);
    expect(sentinel.requests).toEqual([]);
  });

  it('when private targets are allowed (development), the same sentinel is reached, so the corpus test above is meaningful', async () => {
    const sentinel = await receiver(undefined, '::');
    const { store, workspace } = await startDeliveryWorld({ allowPrivate: true, retryScheduleMs: [] }, { resolve: rebindingResolver });
    await createTestWebhook(store, workspace, { url: `http://127.0.0.1:${sentinel.port}/hooks` });
    await createTestWebhook(store, workspace, { url: `http://rebind.example.test:${sentinel.port}/hooks` });
    await createTestWebhook(store, workspace, { url: `http://[::1]:${sentinel.port}/hooks` });
    await emit(store, workspace.workspaceId);
    const requests = await sentinel.waitForRequests(3);
    expect(requests.map((q) => q.headers.host).sort()).toEqual([
      `127.0.0.1:${sentinel.port}`,
      `[::1]:${sentinel.port}`,
      `rebind.example.test:${sentinel.port}`,
    ]);
  });
});
