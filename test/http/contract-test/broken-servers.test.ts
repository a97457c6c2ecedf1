import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { runCliInProcess } from '../../cli/run-cli.js';
import { valuesOf } from '../../support/database-rows.js';
import { startDemoServer, type DemoServer } from './demo-server.js';

interface Failure { operation_id: string; title: string; status: number | null; problems: string[]; curl: string }

let demo: DemoServer | undefined;
let folder: string | undefined;
afterEach(async () => {
  await demo?.server.close();
  demo = undefined;
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

/** The real app behind a step of its own that runs first for requests `matching` (a fault injected on one route). */
function before(matching: (req: Request) => boolean, step: (req: Request, res: Response, next: NextFunction) => void) {
  return (app: Express): Express => {
    const outer = express();
    outer.use((req, res, next) => (matching(req) ? step(req, res, next) : next()));
    outer.use(app);
    return outer;
  };
}

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

/**
 * Each bent copy is checked on the operations it bends (`--operations`: of the others, only the
 * reads their ids come from are sent) with one draw per property (`--examples 1`), so that each
 * run stays a few dozen requests. That the rest of the contract raises no false positive is shown by the whole run
 * against the unbent service (own-server.test.ts, exit 0).
 */
const only = (...ids: string[]) => ['--operations', ids.join(','), '--examples', '1'];

describe('workspace-api contract-test against a server bent out of the contract', { timeout: 120_000 }, () => {
  it('when one answer carries a field the schema does not have, reports it with its curl line and exits 1', async () => {
    const { code, failures } = await runAgainst(bending((req) => req.path === '/api/v1/workspace', (res, body) =>
      res.statusCode === 200 ? { ...body, data: { ...(body.data as object), plan_tier: 'gold' } } : body), only('getWorkspace'));
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['getWorkspace']));
    expect(failures[0]).toMatchObject({ status: 200, problems: ['body/data must NOT have additional properties ("plan_tier")'] });
    expect(failures[0]!.curl).toMatch(new RegExp(`^curl -sS -i -H "${escape(key)}" 'http://127\\.0\\.0\\.1:\\d+/api/v1/workspace'$`));
  });

  it('when one answer lacks a documented header, reports the header', async () => {
    const { code, failures } = await runAgainst(bending((req) => req.path === '/api/v1/visibility/rates', (res, body) => {
      res.removeHeader('RateLimit');
      return body;
    }), only('getVisibilityRates', 'headVisibilityRates'));
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
    }), only('listIdeas', 'headListIdeas'));
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['listIdeas', 'headListIdeas'])); // the HEAD twin answers the same status
    expect(failures[0]).toMatchObject({ status: 203, problems: [expect.stringMatching(/^status 203 is not documented for listIdeas \(documented: 200, 304, 401, /)] });
    expect(failures[0]!.curl).toMatch(/'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/content\/ideas\?limit=2'$/);
  });

  it('when one answer carries the wrong code, reports the code the contract pins', async () => {
    const { code, failures } = await runAgainst(bending((req) => req.path === '/api/v1/me', (res, body) =>
      res.statusCode === 200 ? { ...body, code: 2000 } : body), only('getMe'));
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['getMe']));
    expect(failures[0]).toMatchObject({ status: 200, problems: ['body/code must be equal to constant (4020)'] });
    expect(failures[0]!.curl).toMatch(/\/api\/v1\/me'$/);
  });

  it('when a 422 does not name the offending parameter, reports which names are missing', async () => {
    const { code, failures } = await runAgainst(bending((req) => req.path === '/api/v1/iq/products', (res, body) =>
      res.statusCode === 422 ? { ...body, messages: 'Invalid parameters.', data: { errors: [] } } : body), only('listProducts'));
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
    // listApiKeys takes a member token, which this run does not give: it is not reached, and the last line says both.
    const result = await runCliInProcess(['contract-test', ...demo.args, '--seed', '21', ...only('getWorkspace', 'listApiKeys')]);
    expect(result.code).toBe(1);
    // Each check of getWorkspace that read the bent answer fails, each printed with its curl line; the first is the plain read.
    const count = Number(/\nFailures \((\d+)\)\n/.exec(result.stdout)?.[1]);
    expect(count).toBeGreaterThanOrEqual(1);
    expect(result.stdout).toMatch(new RegExp(`\\nFailures \\(${count}\\)\\n {2}1\\. getWorkspace: read → 200\\n {5}- body/data must NOT have additional properties \\("plan_tier"\\)\\n {5}curl -sS -i -H "${escape(key)}" 'http://127\\.0\\.0\\.1:\\d+/api/v1/workspace'\\n`));
    expect(result.stdout.match(/\n {5}curl -sS /g)).toHaveLength(count);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(`FAILED: ${count} check${count === 1 ? '' : 's'} did not match the contract; 1 operation was not reached (name them in --allow-unreached to accept it).`);
    expect(result.stdout + result.stderr).not.toContain(demo.workspace.key);
  });
});

describe('workspace-api contract-test against copies of the service bent one way each', { timeout: 120_000 }, () => {
  const writes = ['--allow-writes', '--webhook-url', 'http://127.0.0.1:9/contract-test'];

  it('a field of the wrong type: fails with the schema\'s words and a curl line', async () => {
    const { code, failures } = await runAgainst(bending((req) => req.path === '/api/v1/workspace', (res, body) =>
      res.statusCode === 200 ? { ...body, data: { ...(body.data as object), name: 42 } } : body), only('getWorkspace'));
    expect(code).toBe(1);
    expect(failures[0]).toMatchObject({ operation_id: 'getWorkspace', status: 200, problems: ['body/data/name must be string'] });
    expect(failures[0]!.curl).toMatch(new RegExp(`^curl -sS -i -H "${escape(key)}" 'http://127\\.0\\.0\\.1:\\d+/api/v1/workspace'$`));
  });

  it('a scope check skipped on one operation: the key lacking its scope gets a 2xx, reported as scope_refusal', async () => {
    demo = await startDemoServer({
      // Requests to one list made with the limited key are served as if the owner's key had sent them.
      wrap: before((req) => req.path === '/api/v1/content/articles' && req.headers.authorization === `Bearer ${demo!.limitedKey}`, (req, _res, next) => {
        // The service reads credentials from the raw headers (it refuses one sent twice).
        req.headers.authorization = `Bearer ${demo!.workspace.key}`;
        req.rawHeaders = req.rawHeaders.map((v) => (v === `Bearer ${demo!.limitedKey}` ? `Bearer ${demo!.workspace.key}` : v));
        next();
      }),
    });
    const result = await runCliInProcess(['contract-test', ...demo.args, '--limited-key', demo.limitedKey, '--seed', '21', '--json', ...only('listArticles')]);
    expect(result.code).toBe(1);
    const failures = (JSON.parse(result.stdout) as { failures: Failure[] }).failures;
    // Caught twice: by the scope check itself, and by the order of checks (403 before 422).
    expect(failures.map((f) => f.title)).toEqual(['limited key lacking content:read → 403 4023', 'order of checks: 403 before 422']);
    expect(failures[0]).toMatchObject({ operation_id: 'listArticles', status: 200, problems: ['expected 403 (code 4023), got 200 (code 2000: "OK")'] });
    expect(failures[0]!.curl).toMatch(/^curl -sS -i -H "Authorization: Bearer \$WORKSPACE_API_LIMITED_KEY" 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/content\/articles'$/);
  });

  it('a 500 on every call of an added operation whose path takes an enum: the enum fills the path, not_a_server_error fails it, and it is not reached', async () => {
    // The copy: the contract with one more operation, and the app with a route that always fails.
    const document = structuredClone(loadOpenApiDocument()) as { paths: Record<string, unknown> };
    const plan = (document.paths['/api/v1/workspace/plan'] as { get: { responses: Record<string, unknown>; security: unknown } }).get;
    document.paths['/api/v1/workspace/reports/{period}'] = {
      get: {
        operationId: 'getWorkspaceReport', tags: ['Workspace'], security: plan.security, description: 'Requires `workspace:read`.',
        parameters: [{ name: 'period', in: 'path', required: true, description: 'The period.', schema: { type: 'string', enum: ['week', 'month'] } }],
        responses: { 200: plan.responses['200'], 401: plan.responses['401'], 500: plan.responses['500'] },
      },
    };
    folder = mkdtempSync(path.join(tmpdir(), 'wsapi-bent-'));
    const contract = path.join(folder, 'openapi.json');
    writeFileSync(contract, JSON.stringify(document));
    demo = await startDemoServer({
      wrap: before((req) => req.path.startsWith('/api/v1/workspace/reports/'), (_req, res) => {
        res.status(500).json({ code: 5000, messages: 'Internal error.', data: null });
      }),
    });
    const result = await runCliInProcess(['contract-test', ...demo.args, '--contract', contract, '--seed', '21', '--json', ...only('getWorkspaceReport')]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { failures: Failure[]; unreached_operations: unknown[] };
    const urls = report.failures.filter((f) => f.title === 'read').map((f) => f.curl.match(/'(http[^']+)'$/)![1]!.replace(/^http:\/\/127\.0\.0\.1:\d+/, ''));
    expect(urls).toEqual(['/api/v1/workspace/reports/week', '/api/v1/workspace/reports/month']);
    expect(report.failures[0]!.problems).toEqual(expect.arrayContaining(['not_a_server_error: answered 500', 'expected a 2xx answer to a valid request, got 500 (code 5000: "Internal error.")']));
    expect(report.unreached_operations).toEqual([{ operation_id: 'getWorkspaceReport', reason: 'no request reached it (answered 500)', allowed: false }]);
  });

  it('a 304 answered for a tag that does not match: conditional_request fails', async () => {
    const { code, failures } = await runAgainst(before((req) => req.path === '/api/v1/workspace' && req.headers['if-none-match'] !== undefined, (_req, res) => {
      res.status(304).end();
    }), only('getWorkspace'));
    expect(code).toBe(1);
    const foreign = failures.find((f) => f.title === 'If-None-Match with a tag that does not match → the full answer')!;
    expect(foreign.problems).toContain('expected a 2xx answer to a valid request, got 304');
    expect(foreign.curl).toMatch(/^curl -sS -i -H "Authorization: Bearer \$WORKSPACE_API_KEY" -H 'if-none-match: W\/"contract-test-no-such-tag"' 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/workspace'$/);
  });

  it('a HEAD whose headers differ from its GET\'s: head_matches_get fails, with a curl -I line', async () => {
    const { code, failures } = await runAgainst(before((req) => req.method === 'HEAD' && req.path === '/api/v1/visibility/rates', (_req, res, next) => {
      const setHeader = res.setHeader.bind(res);
      res.setHeader = (name: string, value: string | number | readonly string[]) => setHeader(name, name.toLowerCase() === 'vary' ? 'Accept-Language' : value);
      next();
    }), only('headVisibilityRates'));
    expect(code).toBe(1);
    const head = failures.find((f) => f.title === 'HEAD → the GET\'s status and headers, no body')!;
    expect(head.problems).toContainEqual(expect.stringMatching(/^header vary: HEAD "Accept-Language", GET "/));
    expect(head.curl).toMatch(/^curl -sS -I -H "Authorization: Bearer \$WORKSPACE_API_KEY" 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/visibility\/rates'$/);
  });

  it('one operation answering after 2 s, with --max-response-time 1000: max_response_time fails it', async () => {
    const { code, failures } = await runAgainst(before((req) => req.path === '/api/v1/workspace/usage' && req.method === 'GET', (_req, _res, next) => {
      setTimeout(next, 2_000);
    }), [...only('getWorkspaceUsage'), '--max-response-time', '1000', '--budget', '2']);
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['getWorkspaceUsage']));
    expect(failures[0]!.problems[0]).toMatch(/^max_response_time: answered after 2\d{3} ms, more than --max-response-time 1000$/);
    expect(failures[0]!.curl).toMatch(/\/api\/v1\/workspace\/usage'$/);
  });

  it('an accepted invalid value: negative_data_rejection fails on the shrunk draw', async () => {
    // The copy drops the query string of one list before the app sees it: any value is "accepted".
    const { code, failures } = await runAgainst(before((req) => req.path === '/api/v1/iq/products', (req, _res, next) => {
      req.url = req.path;
      next();
    }), only('listProducts'));
    expect(code).toBe(1);
    const drawn = failures.find((f) => f.title.startsWith('invalid values refused with 422 naming each'))!;
    expect(drawn.status).toBe(200);
    expect(drawn.title).toMatch(/^invalid values refused with 422 naming each: \w+=.* \(shrunk in \d+ steps? from \d+ failing draws\)$/);
    expect(drawn.problems).toEqual(['expected 422 (code 4220), got 200 (code 2000: "OK")']);
    expect(drawn.curl).toMatch(/^curl -sS -i -H "Authorization: Bearer \$WORKSPACE_API_KEY" 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/iq\/products\?\w+=[^']*'$/);
  });

  it('a wrong Content-Type on one answer: content_type_conformance fails it', async () => {
    // The copy labels one read's JSON answer as plain text just before it is sent; the bytes and every other header are the app's own.
    const { code, failures } = await runAgainst(before((req) => req.method === 'GET' && req.path === '/api/v1/me', (_req, res, next) => {
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
      res.writeHead = ((...args: unknown[]) => {
        if (res.statusCode === 200) res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        return writeHead(...args);
      }) as Response['writeHead'];
      next();
    }), only('getMe'));
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['getMe']));
    expect(failures[0]).toMatchObject({ title: 'read', status: 200, problems: ['content-type "text/plain" is not documented for 200 (documented: application/json)'] });
    expect(failures[0]!.curl).toMatch(/^curl -sS -i -H "Authorization: Bearer \$WORKSPACE_API_KEY" 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/me'$/);
  });

  it('a body field over its maxLength accepted (the copy cuts a key\'s name to 100): negative_data_rejection fails on the shrunk body, and the key made is revoked', async () => {
    const { code, failures } = await runAgainst(before((req) => req.method === 'POST' && /^\/api\/workspace\/[^/]+\/api-keys$/.test(req.path), (req, res, next) => {
      express.json()(req, res, () => {
        const body = req.body as { name?: unknown };
        if (typeof body.name === 'string') body.name = body.name.slice(0, 100);
        next();
      });
    }), [...writes, '--full', ...only('createApiKey')]);
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['createApiKey']));
    const accepted = failures.find((f) => f.title.startsWith('an invalid body refused with 422 naming its field (name: longer than 100)'))!;
    expect(accepted.status).toBe(201);
    expect(accepted.problems).toEqual(['expected 422 (code 4220), got 201 (code 2010: "Created. Store the key now: it is not shown again.")']);
    expect(accepted.curl).toMatch(new RegExp(`^curl -sS -i -X POST -H 'content-type: application/json' -H "Authorization: Bearer \\$WORKSPACE_API_TOKEN" --data '\\{"name":"y{101}"\\}' 'http://127\\.0\\.0\\.1:\\d+/api/workspace/[0-9a-f-]{36}/api-keys'$`));
    expect(await valuesOf(demo!.server.store, 'SELECT id FROM api_keys WHERE revoked_at IS NULL AND length(name) = 100')).toEqual([]);
  });

  it('a valid body refused (the copy caps a rotation\'s grace period below the contract\'s maximum): positive_data_acceptance fails on the shrunk body', async () => {
    const { code, failures } = await runAgainst(before((req) => req.method === 'POST' && req.path.endsWith('/rotate-secret'), (req, res, next) => {
      express.json()(req, res, () => {
        const grace = (req.body as { grace_period_seconds?: unknown }).grace_period_seconds;
        if (typeof grace === 'number' && grace > 86_400) {
          res.status(422).json({ code: 4220, messages: 'Invalid request: grace_period_seconds must be at most 86400.', data: { errors: [{ in: 'body', name: 'grace_period_seconds', message: 'must be <= 86400' }] } });
        } else next();
      });
    }), [...writes, ...only('rotateWebhookSecret')]);
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['rotateWebhookSecret']));
    const refused = failures.find((f) => f.title.startsWith('a valid body accepted'))!;
    expect(refused.title).toMatch(/^a valid body accepted: body \{"grace_period_seconds":\d+\} \(shrunk in \d+ steps? from \d+ failing draws\)$/);
    // (The copy's 422 comes before the app's own headers, which the check names as well.)
    expect(refused.problems).toContain('expected a 2xx answer to a valid request, got 422 (code 4220: "Invalid request: grace_period_seconds must be at most 86400.")');
    const grace = Number(/"grace_period_seconds":(\d+)/.exec(refused.curl)![1]);
    expect(grace).toBeGreaterThan(86_400);
    expect(grace).toBeLessThan(604_800);
    expect(refused.curl).toMatch(/^curl -sS -i -X POST -H 'content-type: application\/json' -H "Authorization: Bearer \$WORKSPACE_API_TOKEN" --data '\{"grace_period_seconds":\d+\}' 'http:\/\/127\.0\.0\.1:\d+\/api\/workspace\/[0-9a-f-]{36}\/webhooks\/[0-9a-f-]{36}\/rotate-secret'$/);
  });

  it('a write that answers for an object that does not exist (the copy turns a disable\'s 404 into 200): both path parameters are given a value that names nothing, and each 200 fails', async () => {
    const { code, failures } = await runAgainst(before((req) => req.method === 'POST' && /\/webhooks\/[^/]+\/disable$/.test(req.path), (_req, res, next) => {
      const setStatus = res.status.bind(res);
      res.status = (code: number) => setStatus(code === 404 ? 200 : code);
      next();
    }), [...writes, ...only('disableWebhook')]);
    expect(code).toBe(1);
    expect(new Set(failures.map((f) => f.operation_id))).toEqual(new Set(['disableWebhook']));
    const notFound = failures.filter((f) => f.title.endsWith('→ 404'));
    expect(notFound.map((f) => [f.title, f.status])).toEqual([
      ['a workspace that is not the token\'s → 404', 200],
      ['a {webhook_id} that names nothing → 404', 200],
    ]);
    expect(notFound[1]!.curl).toMatch(/^curl -sS -i -X POST -H "Authorization: Bearer \$WORKSPACE_API_TOKEN" 'http:\/\/127\.0\.0\.1:\d+\/api\/workspace\/[0-9a-f-]{36}\/webhooks\/[0-9a-f-]{36}\/disable'$/);
  });

  it('a copy of the contract without the link from listIdeas to getIdea: getIdea and its HEAD are not reached, and the run exits 1 naming them', async () => {
    const document = structuredClone(loadOpenApiDocument()) as { paths: Record<string, { get: { responses: Record<string, { links?: Record<string, unknown> }> } }> };
    const links = document.paths['/api/v1/content/ideas']!.get.responses['200']!.links!;
    expect(Object.keys(links)).toEqual(['getIdea']);
    delete document.paths['/api/v1/content/ideas']!.get.responses['200']!.links;
    folder = mkdtempSync(path.join(tmpdir(), 'wsapi-unlinked-'));
    const contract = path.join(folder, 'openapi.json');
    writeFileSync(contract, JSON.stringify(document));
    demo = await startDemoServer();
    const result = await runCliInProcess(['contract-test', ...demo.args, '--token', demo.token, '--contract', contract, '--seed', '21', '--json', ...only('getIdea', 'headIdea', 'listIdeas')]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { failures: Failure[]; unreached_operations: Array<{ operation_id: string; reason: string; allowed: boolean }> };
    expect(report.failures).toEqual([]);
    expect(report.unreached_operations.filter((u) => !u.allowed).map((u) => u.operation_id).sort()).toEqual(['getIdea', 'headIdea']);
    expect(report.unreached_operations.find((u) => u.operation_id === 'getIdea')!.reason).toMatch(/^no id for \{idea\}: /);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
