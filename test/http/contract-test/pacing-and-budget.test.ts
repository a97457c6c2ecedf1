import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../cli/run-cli.js';
import { startDemoServer, type DemoServer } from './demo-server.js';

interface Report {
  requests: number;
  waited_ms: number;
  budget: number | null;
  budget_spent: boolean;
  failures: unknown[];
  coverage: Array<{ operation_id: string; observed: number[] }>;
  not_reached: Array<{ operation_id: string; what: string; reason: string }>;
}

let demo: DemoServer | undefined;
afterEach(async () => {
  await demo?.server.close();
  demo = undefined;
});

describe('workspace-api contract-test: rate limits and budget', { timeout: 150_000 }, () => {
  it('when the budget runs out first, stops at the budget, lists what it did not reach and exits 2', async () => {
    demo = await startDemoServer();
    const result = await runCliInProcess(['contract-test', ...demo.args, '--budget', '25', '--seed', '1', '--json']);
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as Report;
    expect([report.requests, report.budget, report.budget_spent, report.failures]).toEqual([25, 25, true, []]);
    const unreached = report.not_reached.filter((n) => n.reason === 'budget spent');
    expect(unreached.length).toBeGreaterThan(0);
    // Every operation nothing was sent to is named.
    const untouched = report.coverage.filter((c) => c.observed.length === 0).map((c) => c.operation_id);
    const named = new Set(report.not_reached.map((n) => n.operation_id));
    expect(untouched.filter((op) => !named.has(op))).toEqual([]);

    const text = await runCliInProcess(['contract-test', ...demo.args, '--budget', '25', '--seed', '1']);
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(/\n {2}budget spent: \d+ checks of /);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('INCOMPLETE: the budget of 25 requests ran out before the run covered everything (see "Not reached").');
  });

  it('when the workspace\'s window is full, waits for RateLimit and Retry-After instead of failing', async () => {
    // Ten requests a second: any run fills the window at once, so it has to pace itself.
    // One failed authentication a second: the two the first check of a credential sends meet its 429.
    demo = await startDemoServer({ rateLimit: { quota: 10, windowSeconds: 1, authFailureQuota: 1 } });
    // Enough budget to get past the discovery to the failed authentications, which come next.
    const result = await runCliInProcess(['contract-test', ...demo.args, '--budget', '200', '--seed', '1', '--json']);
    // The budget keeps the test short: it stops the run once the waits were met.
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as Report;

    expect(report.failures).toEqual([]);
    expect(report.requests).toBe(200);
    expect(report.waited_ms).toBeGreaterThan(5_000);
    expect(result.stderr).toMatch(/waiting \d+\.\d s \(no request left in the workspace window\)/);
    // Failed authentications have their own, smaller limit per address: its 429s were answers like
    // any other, checked against the contract, then waited out and the request sent again.
    expect(result.stderr).toMatch(/waiting \d+\.\d s \(429 on client: waiting Retry-After\)/);
    expect(report.coverage.filter((c) => c.observed.includes(429)).length).toBeGreaterThan(0);
    expect(report.coverage.filter((c) => c.observed.includes(401)).length).toBeGreaterThan(0);
  });
});
