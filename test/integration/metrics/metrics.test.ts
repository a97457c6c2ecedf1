import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretToken } from '../../../src/keys/secret-token.js';
import { API_KEY_PREFIX } from '../../../src/keys/api-keys.js';
import { importLines } from '../../../src/import/import-ndjson.js';
import { SAMPLE_EVENT_DATA } from '../../../src/webhooks/delivery/index.js';
import type { RunningServer } from '../../../src/server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { startConfiguredServer } from '../../support/process-server.js';
import { categoryLine, promptLine } from '../../support/import-records.js';
import { answer, startReceiver } from '../../support/webhook-receiver.js';
import { createTestWebhook } from '../../support/webhooks.js';
import { scrape, valueOf, type Scrape } from '../../support/metrics.js';
import { describeWithRedis, startRedisServer } from '../../support/redis-server.js';
import { valueWhen } from '../../support/wait.js';

const P = 'workspace_api_';
const requests = (operation_id: string, method: string, status: number) =>
  [`${P}http_request_duration_seconds_count`, { operation_id, method, status: String(status) }] as const;

/** How much each series moved between two scrapes (absent counts as 0). */
const moved = (before: Scrape, after: Scrape, [name, labels]: readonly [string, Record<string, string>]) =>
  (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);

const scrapeUntil = (url: string, holds: (s: Scrape) => boolean, what: string): Promise<Scrape> => valueWhen(() => scrape(url), holds, 10_000, what, 25);

describe('GET /metrics', () => {
  it('is off by default: nothing listens for it, and the public port answers 404', async () => {
    const running = await startConfiguredServer();
    try {
      expect(running.metricsUrl).toBeUndefined();
      const res = await send(running.url, { path: '/metrics' });
      expect([res.status, (res.body as { code: number }).code]).toEqual([404, 4040]);
    } finally {
      await running.close();
    }
  });

  describe('with METRICS_PORT', () => {
    let running: RunningServer;
    beforeAll(async () => {
      running = await startConfiguredServer({
        METRICS_PORT: '0', RATE_LIMIT_QUOTA: '3', AUTH_FAILURE_QUOTA: '2',
        WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_RETRY_SCHEDULE: '1h',
      });
    });
    afterAll(async () => {
      await running.close();
    });

    it('serves the Prometheus text format on its own port, never on the public one', async () => {
      expect(running.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(new URL(running.metricsUrl!).port).not.toBe(new URL(running.url).port);
      expect(valueOf(await scrape(running.metricsUrl!), `${P}dependency_up`, { dependency: 'database' })).toBe(1);
      expect((await send(running.url, { path: '/metrics' })).status).toBe(404);
      expect((await fetch(new URL('/other', running.metricsUrl)).then((r) => r.status))).toBe(404);
    });

    it('counts requests by operation, method and status with their latency, and rate limit decisions by policy', async () => {
      const ws = await createTestWorkspace(running.store);
      const before = await scrape(running.metricsUrl!);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await send(running.url, { path: '/api/v1/me', key: ws.key })).status);
      statuses.push((await send(running.url, { path: '/api/v1/me', key: ws.key, method: 'HEAD' })).status);
      for (let i = 0; i < 3; i++) statuses.push((await send(running.url, { path: '/api/v1/me', key: createSecretToken(API_KEY_PREFIX) })).status);
      statuses.push((await send(running.url, { path: '/healthz' })).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429, 401, 401, 429, 200]);
      const after = await scrape(running.metricsUrl!);

      expect([
        moved(before, after, requests('getMe', 'GET', 200)),
        moved(before, after, requests('getMe', 'GET', 429)),
        moved(before, after, requests('getMe', 'HEAD', 429)),
        moved(before, after, requests('getMe', 'GET', 401)),
        moved(before, after, requests('none', 'GET', 200)),
      ]).toEqual([3, 2, 1, 2, 1]);
      expect(moved(before, after, [`${P}http_request_duration_seconds_sum`, { operation_id: 'getMe', method: 'GET', status: '200' }])).toBeGreaterThan(0);
      const bucket = { operation_id: 'getMe', method: 'GET', status: '200', le: '+Inf' };
      expect(moved(before, after, [`${P}http_request_duration_seconds_bucket`, bucket])).toBe(3);

      const decisions = (policy: string, decision: string) => [`${P}rate_limit_decisions_total`, { policy, decision }] as const;
      expect([
        moved(before, after, decisions('workspace', 'admitted')),
        moved(before, after, decisions('workspace', 'refused')),
        moved(before, after, decisions('client', 'admitted')),
        moved(before, after, decisions('client', 'refused')),
      ]).toEqual([3, 2, 2, 1]);
    });

    it('counts the lines and times of imports run in the process, committed or rejected', async () => {
      const ws = await createTestWorkspace(running.store);
      const before = await scrape(running.metricsUrl!);
      await importLines(running.store, ws.workspaceId, [categoryLine().line, promptLine().line, '', promptLine().line]);
      await expect(importLines(running.store, ws.workspaceId, [promptLine().line, '{"type":"prompt"}'])).rejects.toThrow('line 2');
      const after = await scrape(running.metricsUrl!);
      expect([
        moved(before, after, [`${P}import_lines_total`, {}]),
        moved(before, after, [`${P}import_duration_seconds_count`, { outcome: 'committed' }]),
        moved(before, after, [`${P}import_duration_seconds_count`, { outcome: 'rejected' }]),
      ]).toEqual([3, 1, 1]);
      expect(moved(before, after, [`${P}import_duration_seconds_sum`, { outcome: 'committed' }])).toBeGreaterThan(0);
    });

    it('shows the outbox backlog, how late the oldest delivery went out, and attempts by outcome', async () => {
      const ws = await createTestWorkspace(running.store);
      const ok = await startReceiver(() => answer(200, 'ok'));
      const down = await startReceiver(() => answer(503, 'down'));
      try {
        await createTestWebhook(running.store, ws, { url: ok.url, events: ['content.status_updated'] });
        await createTestWebhook(running.store, ws, { url: down.url, events: ['content.status_updated'] });
        const before = await scrape(running.metricsUrl!);
        const data = { ...SAMPLE_EVENT_DATA['content.status_updated'], id: crypto.randomUUID(), status: 'PUBLISHED' as const };
        // Emitted ten minutes ago: the loop takes it now, ten minutes late.
        await running.store.webhookDeliveries.enqueueEvent({ workspaceId: ws.workspaceId, type: 'content.status_updated', data, at: new Date(Date.now() - 600_000) });

        const attempts = (outcome: string) => [`${P}webhook_delivery_attempts_total`, { outcome }] as const;
        const lateness: number[] = [];
        const after = await scrapeUntil(running.metricsUrl!, (s) => {
          lateness.push(valueOf(s, `${P}webhook_outbox_oldest_pending_age_seconds`)!);
          return moved(before, s, attempts('delivered')) + moved(before, s, attempts('retry')) >= 2;
        }, 'both attempts');
        expect([moved(before, after, attempts('delivered')), moved(before, after, attempts('retry')), moved(before, after, attempts('failed'))])
          .toEqual([1, 1, 0]);
        // The failed delivery waits an hour for its retry.
        expect(moved(before, after, [`${P}webhook_outbox_pending`, {}])).toBe(1);
        // The scrape after a claim shows how late it went out; each scrape starts again from 0, so
        // once nothing more is taken (the retry is an hour away) the next one shows 0.
        const late = lateness.filter((age) => age > 0);
        expect(late.length).toBeGreaterThan(0);
        for (const age of late) {
          expect(age).toBeGreaterThanOrEqual(600);
          expect(age).toBeLessThan(900);
        }
        expect(valueOf(await scrape(running.metricsUrl!), `${P}webhook_outbox_oldest_pending_age_seconds`)).toBe(0);
      } finally {
        await ok.close();
        await down.close();
      }
    });
  });
});

describeWithRedis('GET /metrics with REDIS_URL', () => {
  it('reports each dependency\'s health, redis going to 0 while it is down, and the limit it could not count', async () => {
    const redis = await startRedisServer();
    const running = await startConfiguredServer({ METRICS_PORT: '0', REDIS_URL: redis.url });
    try {
      const up = (s: Scrape) => [valueOf(s, `${P}dependency_up`, { dependency: 'database' }), valueOf(s, `${P}dependency_up`, { dependency: 'redis' })];
      expect(up(await scrapeUntil(running.metricsUrl!, (s) => up(s)[1] === 1, 'redis up'))).toEqual([1, 1]);

      const ws = await createTestWorkspace(running.store);
      await redis.stop();
      const before = await scrape(running.metricsUrl!);
      expect(up(before)).toEqual([1, 0]);
      expect((await send(running.url, { path: '/api/v1/me', key: ws.key })).status).toBe(503);
      const after = await scrape(running.metricsUrl!);
      expect(moved(before, after, [`${P}rate_limit_decisions_total`, { policy: 'workspace', decision: 'unavailable' }])).toBe(1);

      await redis.start();
      expect(up(await scrapeUntil(running.metricsUrl!, (s) => up(s)[1] === 1, 'redis up again'))).toEqual([1, 1]);
    } finally {
      await running.close();
      await redis.remove();
    }
  });
});
