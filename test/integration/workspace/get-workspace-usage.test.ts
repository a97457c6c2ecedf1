import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { startServer } from '../../../src/server.js';
import { importLines } from '../../../src/import/import-ndjson.js';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { startTestServerForThisTest, useTestServer } from '../../support/test-server.js';
import { planLine } from '../../support/workspace-records.js';
import { promptLine } from '../../support/import-records.js';
import { articleLine } from '../../support/content-records.js';

// The server's clock: each test sets the instant its requests happen at.
let clock = new Date('2026-11-22T10:00:00.000Z');
const server = useTestServer({ now: () => clock });

const usage = (key: string) => send(server.url, { path: '/api/v1/workspace/usage' }, key);
const get = (key: string, path: string) => send(server.url, { path }, key);

interface Usage {
  period: { start: string; end: string };
  api_requests_served: number;
}
const dataOf = (body: unknown) => (body as { data: Usage }).data;

describe('GET /api/v1/workspace/usage', () => {
  it('when no plan is on record, answers the current UTC calendar month with no limits', async () => {
    clock = new Date('2026-02-10T08:00:00.000Z');
    const ws = await createTestWorkspace(server.store);
    const res = await usage(ws.key);
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        period: { start: '2026-02-01', end: '2026-02-28' },
        prompts_tracked: { used: 0, limit: null, remaining: null },
        articles_generated: { used: 0, limit: null, remaining: null },
        api_requests_served: 1,
      },
    }]);
  });

  it('when a plan is on record, answers its period and its limits with what remains', async () => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const ws = await createTestWorkspace(server.store);
    await importLines(server.store, ws.workspaceId, [planLine({ tracked_prompts_limit: 100, articles_per_month_limit: 0 }).line]);
    const res = await usage(ws.key);
    expect(dataOf(res.body)).toEqual({
      period: { start: '2026-11-01', end: '2026-11-30' },
      prompts_tracked: { used: 0, limit: 100, remaining: 100 },
      articles_generated: { used: 0, limit: 0, remaining: 0 },
      api_requests_served: 1,
    });
  });

  it('when prompts and articles are on record, counts every prompt and the articles written on a day of the period', async () => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const ws = await createTestWorkspace(server.store);
    await importLines(server.store, ws.workspaceId, [
      planLine({ tracked_prompts_limit: 2, articles_per_month_limit: 30, period_start: '2026-11-01', period_end: '2026-11-30' }).line,
      promptLine({ status: 'ACTIVE' }).line,
      promptLine({ status: 'PENDING' }).line,
      promptLine({ status: 'GENERATING' }).line,
      articleLine({ written_on: '2026-10-31T23:59:59.999Z' }).line,
      articleLine({ written_on: '2026-11-01T00:00:00.000Z' }).line,
      articleLine({ written_on: '2026-11-30T23:59:59.999Z' }).line,
      articleLine({ written_on: '2026-12-01T00:00:00.000Z' }).line,
      articleLine({ status: 'DRAFT', written_on: null }).line,
    ]);
    const other = await createTestWorkspace(server.store);
    await importLines(server.store, other.workspaceId, [promptLine().line, articleLine({ written_on: '2026-11-10T00:00:00.000Z' }).line]);
    expect(dataOf((await usage(ws.key)).body)).toEqual({
      period: { start: '2026-11-01', end: '2026-11-30' },
      prompts_tracked: { used: 3, limit: 2, remaining: 0 },
      articles_generated: { used: 2, limit: 30, remaining: 28 },
      api_requests_served: 1,
    });
  });

  it('when the workspace made requests with several keys, counts every authenticated one, this one included', async () => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const ws = await createTestWorkspace(server.store);
    const narrow = await createTestKey(server.store, ws, { scopes: ['iq:read'] });
    await get(ws.key, '/api/v1/me');
    await get(ws.key, '/api/v1/workspace');
    await get(narrow.key, '/api/v1/workspace'); // 403, but authenticated and served
    await get(ws.key, '/api/v1/nowhere'); // 404, likewise
    expect(dataOf((await usage(ws.key)).body).api_requests_served).toBe(5);
  });

  it('when requests are refused before authentication succeeds, does not count them', async () => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const ws = await createTestWorkspace(server.store);
    // Always a different last character, so the altered key can never equal the real one.
    const altered = `${ws.key.slice(0, -1)}${ws.key.endsWith('x') ? 'y' : 'x'}`;
    expect(altered).not.toBe(ws.key);
    const refused = await send(server.url, { path: '/api/v1/workspace', key: altered });
    expect(refused.status).toBe(401);
    await send(server.url, { path: '/api/v1/workspace', key: null });
    expect(dataOf((await usage(ws.key)).body).api_requests_served).toBe(1);
  });

  it('when another workspace makes requests, does not count them', async () => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    for (let i = 0; i < 3; i += 1) await get(other.key, '/api/v1/me');
    expect(dataOf((await usage(ws.key)).body).api_requests_served).toBe(1);
    expect(dataOf((await usage(other.key)).body).api_requests_served).toBe(4);
  });

  it('when the counts have been written to the database, answers the same total, without counting twice', async () => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const ws = await createTestWorkspace(server.store);
    await get(ws.key, '/api/v1/me');
    await get(ws.key, '/api/v1/me');
    await server.writers.requestCounts.finish();
    expect(await server.store.workspaceProfile.sumApiRequests(ws.workspaceId, 0, 1_000_000)).toBe(2);
    expect(dataOf((await usage(ws.key)).body).api_requests_served).toBe(3);
    await server.writers.requestCounts.finish();
    expect(dataOf((await usage(ws.key)).body).api_requests_served).toBe(4);
  });

  it('when the counts are being written while the usage is read, counts every request exactly once', async () => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const ws = await createTestWorkspace(server.store);
    let sent = 0;
    for (let round = 0; round < 25; round += 1) {
      expect((await get(ws.key, '/api/v1/me')).status).toBe(200);
      sent += 1;
      // A write of the counts starts, and the usage is read while it runs (on a network database
      // it may commit between the usage's read of the written counts and its sum of the pending).
      const writing = server.writers.requestCounts.flush();
      const res = await usage(ws.key);
      sent += 1;
      await writing;
      expect(dataOf(res.body).api_requests_served, `round ${round + 1}`).toBe(sent);
    }
  });

  it('when requests fall on UTC days outside the plan period, counts only the days inside it', async () => {
    const ws = await createTestWorkspace(server.store);
    await importLines(server.store, ws.workspaceId, [planLine({ period_start: '2026-11-01', period_end: '2026-11-30' }).line]);
    clock = new Date('2026-10-31T23:59:59.999Z');
    await get(ws.key, '/api/v1/me');
    clock = new Date('2026-11-01T00:00:00.000Z');
    await get(ws.key, '/api/v1/me');
    await server.writers.requestCounts.finish();
    clock = new Date('2026-11-30T23:59:59.999Z');
    await get(ws.key, '/api/v1/me');
    clock = new Date('2026-12-01T00:00:00.000Z');
    await get(ws.key, '/api/v1/me');
    clock = new Date('2026-11-30T12:00:00.000Z');
    expect(dataOf((await usage(ws.key)).body).api_requests_served).toBe(3);
  });

  it('when the subscription is past due or canceled, still answers 200', async () => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    for (const status of ['past_due', 'canceled'] as const) {
      const ws = await createTestWorkspace(server.store, { subscription: status });
      expect((await usage(ws.key)).status).toBe(200);
    }
  });
});

describe('GET /api/v1/workspace/usage under the rate limit', () => {
  it('when requests are refused with 429, does not count them', async () => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const limited = await startTestServerForThisTest({ now: () => clock, rateLimit: { quota: 3, windowSeconds: 60, authFailureQuota: 30 } });
    const ws = await createTestWorkspace(limited.store);
    for (let i = 0; i < 5; i += 1) await send(limited.url, { path: '/api/v1/me' }, ws.key);
    await limited.writers.requestCounts.finish();
    expect(await limited.store.workspaceProfile.sumApiRequests(ws.workspaceId, 0, 1_000_000)).toBe(3);
  });
});

describe('GET /api/v1/workspace/usage across a restart', () => {
  it('when the server shuts down, writes the pending counts, and the next process answers them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-usage-'));
    const config = { ...loadConfig({}), databasePath: path.join(dir, 'usage.db'), port: 0, host: '127.0.0.1' };
    const logger = pino({ level: 'silent' });
    try {
      const first = await startServer(config, { logger });
      const ws = await createTestWorkspace(first.store);
      for (let i = 0; i < 4; i += 1) await send(first.url, { path: '/api/v1/me' }, ws.key);
      await first.close();
      const second = await startServer(config, { logger });
      try {
        const res = await send(second.url, { path: '/api/v1/workspace/usage' }, ws.key);
        expect(dataOf(res.body).api_requests_served).toBe(5);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
