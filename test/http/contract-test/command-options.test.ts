import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../cli/run-cli.js';
import { freePort } from '../../support/free-port.js';

describe('workspace-api contract-test: options', () => {
  it('refuses a bad option before sending anything', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['contract-test', '--key', 'k'], /^error: --base-url is required\n$/],
      [['contract-test', '--base-url', 'ftp://example.com', '--key', 'k'], /^error: --base-url must be an http or https URL\n$/],
      [['contract-test', '--base-url', 'http://127.0.0.1:9', '--key', 'k', '--budget', '0'], /^error: --budget "0" must be a whole number from 1 to 1000000\n$/],
      [['contract-test', '--base-url', 'http://127.0.0.1:9', '--key', 'k', '--allow-writes'], /^error: --allow-writes needs --token/],
      [['contract-test', '--base-url', 'http://127.0.0.1:9', '--key', 'k', '--allow-unreached', 'getMe,nope'], /^error: --allow-unreached names nope, which the contract does not document\n$/],
      [['contract-test', 'webhook', '--base-url', 'http://127.0.0.1:9', '--key', 'k'], /^error: unexpected "webhook"; usage: contract-test /],
      [['contract-test', 'webhooks', '--listen', '0', '--secret', 'nope'], /^error: --secret must be the webhook's whsec_… signing secret\n$/],
      [['contract-test', 'webhooks', '--listen', '0', '--secret', 'whsec_QUJD', '--trigger'], /^error: --trigger needs --base-url, --token, --workspace, --webhook\n$/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCliInProcess(args)));
    for (const [i, [, message]] of cases.entries()) {
      expect([results[i]!.code, results[i]!.stdout]).toEqual([1, '']);
      expect(results[i]!.stderr).toMatch(message);
    }
  });

  it('when nothing answers at the base URL, says so in one failure and exits 1', async () => {
    const port = await freePort();
    const result = await runCliInProcess(['contract-test', '--base-url', `http://127.0.0.1:${port}`, '--key', 'wsk_live_x', '--seed', '1', '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { requests: number; failures: unknown[] };
    expect(report.requests).toBe(0);
    expect(report.failures).toEqual([{
      operation_id: '(server)', title: 'reach the server', status: null,
      problems: ['no answer: fetch failed (ECONNREFUSED)'], curl: `curl -sS -i 'http://127.0.0.1:${port}/openapi.json'`,
    }]);
  });
});
