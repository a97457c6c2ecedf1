import express, { type Express, type Request, type Response } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../cli/run-cli.js';
import { startDemoServer, type DemoServer } from './demo-server.js';

interface Failure { operation_id: string; title: string; status: number | null; problems: string[]; curl: string }

let demo: DemoServer | undefined;
afterEach(async () => {
  await demo?.server.close();
  demo = undefined;
});

/**
 * The real app inside another one that rewrites the answers to requests `matching` just before
 * they are sent: the body (parsed JSON), the status, the headers. Everything else is the app's own.
 */
function bending(matching: (req: Request) => boolean, bend: (res: Response, body: Record<string, unknown>) => Record<string, unknown>) {
  return (app: Express): Express => {
    const outer = express();
    outer.use((req, res, next) => {
      if (matching(req)) {
        const send = res.send.bind(res);
        res.send = (body?: unknown) => {
          if (typeof body !== 'string' || !(res.get('content-type') ?? '').startsWith('application/json')) return send(body);
          return send(JSON.stringify(bend(res, JSON.parse(body) as Record<string, unknown>)));
        };
      }
      next();
    });
    outer.use(app);
    return outer;
  };
}

async function runAgainst(wrap: (app: Express) => Express, extra: string[] = []): Promise<{ code: number; failures: Failure[] }> {
  demo = await startDemoServer({ wrap });
  const result = await runCliInProcess(['contract-test', ...demo.args, '--token', demo.token, '--seed', '21', '--json', ...extra]);
  const report = JSON.parse(result.stdout) as { failures: Failure[] };
  return { code: result.code, failures: report.failures };
}

const key = 'Authorization: Bearer $WORKSPACE_API_KEY';

describe('workspace-api contract-test against a server bent out of the contract', { timeout: 120_000 }, () => {
  it('when one answer carries a field the schema does not have, reports it with its curl line and exits 1', async () => {
    const { code, failures } = await runAgainst(bending((req) => req.path === '/api/v1/workspace', (res, body) =>
      res.statusCode === 200 ? { ...body, data: { ...(body.data as object), plan_tier: 'gold' } } : body));
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['getWorkspace']));
    expect(failures[0]).toMatchObject({ status: 200, problems: ['body/data must NOT have additional properties (plan_tier)'] });
    expect(failures[0]!.curl).toMatch(new RegExp(`^curl -sS -i -H "${escape(key)}" 'http://127\\.0\\.0\\.1:\\d+/api/v1/workspace'$`));
  });

  it('when one answer lacks a documented header, reports the header', async () => {
    const { code, failures } = await runAgainst(bending((req) => req.path === '/api/v1/visibility/rates', (res, body) => {
      res.removeHeader('RateLimit');
      return body;
    }));
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['getVisibilityRates', 'headVisibilityRates'])); // the HEAD twin answers the same headers
    for (const f of failures) {
      expect(f.problems).toContain(`header RateLimit is documented for ${f.status} but missing`);
      expect(f.curl).toContain('/api/v1/visibility/rates');
    }
  });

  it('when one answer has a status the operation does not document, reports the status', async () => {
    const { code, failures } = await runAgainst(bending((req) => req.path === '/api/v1/content/ideas', (res, body) => {
      if (res.statusCode === 200) res.status(203);
      return body;
    }));
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['listIdeas', 'headListIdeas'])); // the HEAD twin answers the same status
    expect(failures[0]).toMatchObject({ status: 203, problems: [expect.stringMatching(/^status 203 is not documented for listIdeas \(documented: 200, 304, 401, /)] });
    expect(failures[0]!.curl).toMatch(/'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/content\/ideas\?limit=2'$/);
  });

  it('when one answer carries the wrong code, reports the code the contract pins', async () => {
    const { code, failures } = await runAgainst(bending((req) => req.path === '/api/v1/me', (res, body) =>
      res.statusCode === 200 ? { ...body, code: 2000 } : body));
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['getMe']));
    expect(failures[0]).toMatchObject({ status: 200, problems: ['body/code must be equal to constant (4020)'] });
    expect(failures[0]!.curl).toMatch(/\/api\/v1\/me'$/);
  });

  it('when a 422 does not name the offending parameter, reports which names are missing', async () => {
    const { code, failures } = await runAgainst(bending((req) => req.path === '/api/v1/iq/products', (res, body) =>
      res.statusCode === 422 ? { ...body, messages: 'Invalid parameters.', data: { errors: [] } } : body), ['--operations', 'listProducts']);
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['listProducts']));
    const unknown = failures.find((f) => f.title.startsWith('unknown zz_unknown_'))!;
    expect(unknown.problems).toContainEqual(expect.stringMatching(/^the 422 does not name "zz_unknown_\w+", "limit", "cursor", "order", "updated_after", "stage" \(messages: "Invalid parameters\."\)$/));
    expect(unknown.curl).toMatch(/\/api\/v1\/iq\/products\?zz_unknown_\w+=1&limit=101&cursor=x{513}&order=zz-not-one-of-them&updated_after=not-a-date&stage=zz-not-one-of-them'$/);
  });

  it('prints each failure with its curl line, the key as an environment variable, and exits 1', async () => {
    demo = await startDemoServer({
      wrap: bending((req) => req.path === '/api/v1/workspace', (res, body) => (res.statusCode === 200 ? { ...body, data: { ...(body.data as object), plan_tier: 'gold' } } : body)),
    });
    const result = await runCliInProcess(['contract-test', ...demo.args, '--seed', '21']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`\\nFailures \\(1\\)\\n {2}1\\. getWorkspace: read → 200\\n {5}- body/data must NOT have additional properties \\(plan_tier\\)\\n {5}curl -sS -i -H "${escape(key)}" 'http://127\\.0\\.0\\.1:\\d+/api/v1/workspace'\\n`));
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^FAILED: 1 check did not match the contract; \d+ operations were not reached \(name them in --allow-unreached to accept it\)\.$/);
    expect(result.stdout + result.stderr).not.toContain(demo.workspace.key);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
