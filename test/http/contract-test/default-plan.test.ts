import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../cli/run-cli.js';
import { allowUnreached, MEMBER_TOKEN_ONLY, startDemoServer, WRITES, type DemoServer } from './demo-server.js';

interface Report {
  failures: Array<{ operation_id: string; title: string; status: number | null; problems: string[] }>;
  not_reached: Array<{ operation_id: string; what: string; reason: string }>;
}

let demo: DemoServer | undefined;
afterEach(async () => {
  await demo?.server.close();
  demo = undefined;
});

const AGENT_TASK = /^\/api\/v1\/content\/agent-tasks\/[^/]+$/;
const VISUAL_GUIDELINE = /^\/api\/v1\/iq\/visual-guidelines\/[^/]+$/;

/**
 * The real app with three faults on operations the discovery reaches last, each of which the
 * default plan must find on its own, without `--full` or `--operations`: `getAgentTask` serves a
 * key lacking `content:read` as if it held it (its scope guard skipped), `getVisualGuideline`
 * answers 200 where it found nothing, and a PUT to its path is answered 200 instead of 405.
 */
function threeFaults(app: Express): Express {
  const outer = express();
  outer.use((req, res, next) => {
    if (AGENT_TASK.test(req.path) && req.headers.authorization === `Bearer ${demo!.limitedKey}`) {
      // The service reads credentials from the raw headers (it refuses one sent twice).
      req.headers.authorization = `Bearer ${demo!.workspace.key}`;
      req.rawHeaders = req.rawHeaders.map((v) => (v === `Bearer ${demo!.limitedKey}` ? `Bearer ${demo!.workspace.key}` : v));
    }
    if (VISUAL_GUIDELINE.test(req.path)) {
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
      res.writeHead = ((statusCode: number, ...rest: unknown[]) => writeHead(statusCode === 404 || statusCode === 405 ? 200 : statusCode, ...rest)) as typeof res.writeHead;
    }
    next();
  });
  outer.use(app);
  return outer;
}

describe('workspace-api contract-test: what the default plan covers', { timeout: 300_000 }, () => {
  it('checks scope refusal, 404 and 405 on every operation they apply to: faults on the operations reached last fail the run', async () => {
    demo = await startDemoServer({ wrap: threeFaults });
    const result = await runCliInProcess(['contract-test', ...demo.args, '--limited-key', demo.limitedKey, '--seed', '21', '--json', ...allowUnreached(MEMBER_TOKEN_ONLY, WRITES)]);
    const report = JSON.parse(result.stdout) as Report;
    expect(result.code).toBe(1);
    const failed = (operationId: string, title: string) => report.failures.find((f) => f.operation_id === operationId && f.title === title);
    expect(failed('getAgentTask', 'limited key lacking content:read → 403 4023')).toMatchObject({ status: 200, problems: ['expected 403 (code 4023), got 200 (code 2000: "OK")'] });
    expect(failed('getVisualGuideline', 'a {visual_guideline} that names nothing → 404')).toMatchObject({ status: 200 });
    expect(report.failures.some((f) => f.operation_id === 'getVisualGuideline' && /^PUT → 405/.test(f.title))).toBe(true);
    // Every scoped read met the limited key, or the report says why it could not.
    expect(report.not_reached.filter((n) => n.what === 'a key lacking its scope → 403').map((n) => n.reason))
      .toEqual(expect.arrayContaining([expect.stringMatching(/^scope refusal not checked: no key of the run lacks (visibility|iq):read$/)]));
  });

  it('without a key lacking a scope, says for every scoped operation that its scope refusal was not checked', async () => {
    demo = await startDemoServer();
    const result = await runCliInProcess(['contract-test', ...demo.args, '--seed', '3', '--operations', 'listTopics,getWorkspace', '--examples', '1']);
    expect(result.stdout).toMatch(/\n {2}scope refusal not checked: give --limited-key \(a key lacking a scope\), or --token with --allow-writes \(a key minted per scope\): 2 checks of (listTopics, getWorkspace|getWorkspace, listTopics)\n/);
  });
});
