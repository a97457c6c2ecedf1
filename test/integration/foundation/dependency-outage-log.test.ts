import { describe, expect, it } from 'vitest';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { startTestServerThroughCutter } from '../../support/postgres-commit-cutter.js';
import { onPostgres } from '../../support/store-kind.js';
import { until } from '../../support/wait.js';

describe.skipIf(!onPostgres())('the log while PostgreSQL is away', () => {
  it('holds one warning when the outage starts and one info line when it ends, and no stack per refused request', async () => {
    const { server, cutter: relay } = await startTestServerThroughCutter();
    const workspace = await createTestWorkspace(server.store);
    const { key } = await createTestKey(server.store, workspace);
    expect((await send(server.url, { path: '/api/v1/me', key })).status).toBe(200);

    relay.refuseNew(true);
    relay.dropConnections();
    for (let i = 0; i < 5; i += 1) expect((await send(server.url, { path: '/api/v1/me', key })).status).toBe(503);
    for (let i = 0; i < 3; i += 1) expect((await send(server.url, { path: '/readyz' })).status).toBe(503);
    relay.refuseNew(false);
    await until(async () => (await send(server.url, { path: '/api/v1/me', key })).status === 200, 10_000, 'the service to answer again');
    await until(() => server.logLines().some((line) => line.includes('answers again')), 10_000, 'the line that says the outage ended');

    const entries = server.logLines().map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown });
    const aboutTheOutage = entries.filter((e) => e.level >= 40 || /answers again/.test(e.msg));
    expect(aboutTheOutage.map((e) => [e.level, e.msg])).toEqual([
      [40, 'postgresql does not answer: requests that need it answer 503 until it is back'],
      [30, expect.stringMatching(/^postgresql answers again after \d+ ms; \d+ requests answered 503 meanwhile$/)],
    ]);
    expect(entries.filter((e) => e.err !== undefined)).toEqual([]);
  });
});
