import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstJsonLine, spawnCli } from '../cli/run-cli.js';

// Prism's validation proxy (@stoplight/prism-cli), which many client teams run in front of a
// service, between a client and the demo workspace served by the command line: every read of the
// published contract goes through it, and none may come back with a violation. The same script
// runs in .ci/run's smoke.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let dir: string;
let served: ReturnType<typeof spawnCli>;
let demo: { url: string; demo: { key: string } };
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'prism-proxy-'));
  served = spawnCli(['serve', '--port', '0', '--host', '127.0.0.1', '--db', path.join(dir, 'demo.db'), '--demo', '--json'],
    { RATE_LIMIT_QUOTA: '100000', AUTH_FAILURE_QUOTA: '100000' });
  demo = await firstJsonLine(served.child) as typeof demo;
}, 120_000);
afterAll(async () => {
  served?.child.kill('SIGTERM');
  await served?.exited;
  rmSync(dir, { recursive: true, force: true });
});

function prismCheck(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'scripts', 'prism-check.mjs'), ...args], { cwd: ROOT, timeout: 240_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('scripts/prism-check.mjs: prism proxy --errors in front of the demo workspace', () => {
  it('sends every read operation of the served contract through the proxy with the key, and no answer carries a violation', async () => {
    const contract = await (await fetch(`${demo.url}/openapi.json`)).json() as { info: { version: string }; paths: Record<string, { get?: { operationId: string } }> };
    const reads = Object.entries(contract.paths).filter(([p, item]) => p.startsWith('/api/v1/') && item.get).map(([, item]) => `${item.get!.operationId} 200`);
    const result = await prismCheck('--base-url', demo.url, '--key', demo.demo.key);
    expect([result.code, result.stderr]).toEqual([0, '']);
    const [summary, ...checked] = result.stdout.trim().split('\n');
    expect(summary).toBe(`prism proxy --errors (contract ${contract.info.version}): ${reads.length} read(s) through it, 0 problem(s)`);
    expect(checked.map((line) => line.trim()).sort()).toEqual(reads.sort());
    expect(reads).toEqual(expect.arrayContaining(['exportAnswersNdjson 200', 'exportDailyRatesNdjson 200']));
  }, 300_000);

  it('refuses to run without a base URL and a key', async () => {
    const result = await prismCheck('--key', 'wsk_live_x');
    expect([result.code, result.stderr]).toEqual([2, 'error: --base-url and --key are required\nusage: node scripts/prism-check.mjs --base-url URL --key KEY [--contract OPENAPI.json] [--port N]\n']);
  });
});
