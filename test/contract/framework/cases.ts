import { expect } from 'vitest';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { createSecretToken } from '../../../src/keys/secret-token.js';
import { createTestKey } from '../../support/accounts.js';
import type { OperationScenario, RequestBuilder, RequestSpec, ScenarioContext } from '../scenarios/types.js';
import { INTERNAL_CAUSE, WINDOW_SECONDS, WORKSPACE_QUOTA, type Harness } from './harness.js';
import { parseRateLimit } from '../../support/http.js';
import { holdWriteLock } from '../../support/write-lock.js';
import { expectedScopes, isReadApi } from './scopes.js';
import type { ContractOperation, ObservedResponse } from './spec.js';
import { mirroredAsHead } from './head-mirror.js';

/** One way of obtaining one status of one operation. */
export interface ContractCase {
  status: number;
  title: string;
  run: (harness: Harness) => Promise<void>;
  /** About SQLite's write lock, which a PostgreSQL store never takes: skipped in the PostgreSQL run. */
  sqliteOnly?: boolean;
  /**
   * Answered in front of the store (credentials, method, body encoding, parameters, the rate limit,
   * a failing handler), the same code whatever the store: run once, on SQLite. The guards that
   * do read the store (a key's scopes, the subscription) run on both in
   * integration/security/read-guards.test.ts.
   */
  storeBlind?: boolean;
}

/** The statuses the framework can produce for any read-API operation from its success request. */
const GENERIC_STATUSES = [304, 401, 402, 403, 405, 422, 429, 500, 503] as const;
/**
 * Those that do not depend on API-key scopes or the subscription also apply to the admin API, with
 * 415 for a body.
 */
const ADMIN_GENERIC_STATUSES = [304, 401, 405, 415, 422, 429, 500, 503] as const;

/** Operations other than GET that write nothing, so an import holding the write lock never delays them. */
const CHANGES_NOTHING = new Set(['testWebhook']);

const UNKNOWN_PARAMETER = 'zz_not_a_parameter';
const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

export function namedCases(entry: OperationScenario['statuses'][number]): Array<[name: string, build: RequestBuilder]> {
  if (entry === undefined) return [];
  if (typeof entry === 'function') return [['', entry]];
  return Object.entries(entry);
}

/** The first success request of a scenario: the base every generic case starts from. */
export function successBuilder(scenario: OperationScenario): { status: number; build: RequestBuilder } | undefined {
  const status = Object.keys(scenario.statuses).map(Number).filter((s) => s >= 200 && s < 300).sort((a, b) => a - b)[0];
  if (status === undefined) return undefined;
  const first = namedCases(scenario.statuses[status])[0];
  return first ? { status, build: first[1] } : undefined;
}

function withoutCredentials(spec: RequestSpec): RequestSpec {
  const headers = Object.fromEntries(
    Object.entries(spec.headers ?? {}).filter(([name]) => !['authorization', 'x-api-key'].includes(name.toLowerCase())),
  );
  return { ...spec, headers, key: null };
}

function errorBody(code: number, data: unknown = null): unknown {
  return { code, messages: expect.any(String), data };
}

/** Whether the framework produces this documented status for this operation by itself. */
function isGeneric(op: ContractOperation, status: number): boolean {
  if (status === 415 && !op.takesBody) return false;
  return ((isReadApi(op.path) ? GENERIC_STATUSES : ADMIN_GENERIC_STATUSES) as readonly number[]).includes(status);
}

function genericCases(op: ContractOperation, scenario: OperationScenario): ContractCase[] {
  const base = successBuilder(scenario);
  if (!base) return [];
  const documented = (status: number) => op.statuses.includes(status) && isGeneric(op, status);
  const cases: ContractCase[] = [];
  const add = (status: number, title: string, body: (h: Harness, ctx: ScenarioContext, spec: RequestSpec) => Promise<void>, sqliteOnly = false) => {
    if (!documented(status)) return;
    cases.push({
      status,
      title,
      sqliteOnly,
      // A 304 compares two answers the store produced: its ETag holds only if the store answers the same bytes twice.
      storeBlind: status !== 304,
      run: async (h) => {
        const ctx = await h.context();
        await body(h, ctx, await base.build(ctx));
      },
    });
  };

  add(304, 'answers 304 with no body, the same ETag and the RateLimit headers for a matching If-None-Match', async (h, ctx, spec) => {
    // A key's first request records its use, which `/me` shows. The write is never waited for by
    // the request (src/keys/last-used-recorder.ts), so it is waited for here: a read that came
    // before it landed would carry another body, and so another ETag, than one after.
    await h.call(op, spec, ctx);
    await ctx.server.writers.keyUses.finish();
    const first = await h.call(op, spec, ctx);
    const etag = first.headers.get('etag')!;
    const again = await h.call(op, { ...spec, headers: { ...spec.headers, 'if-none-match': etag } }, ctx);
    expect([again.status, again.text, again.headers.get('etag')]).toEqual([304, '', etag]);
    // Counted like any read (by less than `first`'s remaining; a HEAD may have been counted in between).
    expect(parseRateLimit(again.headers.get('ratelimit')).r).toBeLessThan(parseRateLimit(first.headers.get('ratelimit')).r);
  });
  add(401, 'answers 401 (4021) when no key is sent', async (h, ctx, spec) => {
    const res = await h.call(op, withoutCredentials(spec), ctx);
    expect([res.status, res.body]).toEqual([401, errorBody(4021)]);
  });
  add(401, 'answers 401 (4022) for a well-formed key nobody issued', async (h, ctx, spec) => {
    const res = await h.call(op, { ...withoutCredentials(spec), key: createSecretToken('wsk_live_') }, ctx);
    expect([res.status, res.body]).toEqual([401, errorBody(4022)]);
  });
  add(403, 'answers 403 (4023) with required and missing for a key without scopes', async (h, ctx, spec) => {
    const { key } = await createTestKey(ctx.store, ctx.workspace, { scopes: [] });
    const res = await h.call(op, { ...spec, key }, ctx);
    const required = expectedScopes(op.path);
    expect([res.status, res.body]).toEqual([403, errorBody(4023, { required, missing: required })]);
  });
  add(402, 'answers 402 (1916) when the workspace is past due', async (h, ctx, spec) => {
    await ctx.store.accounts.setSubscription(ctx.workspace.workspaceId, 'past_due');
    const res = await h.call(op, spec, ctx);
    expect([res.status, res.body]).toEqual([402, errorBody(1916)]);
  });
  add(405, 'answers 405 (4050) with Allow for another method', async (h, ctx, spec) => {
    const method = OTHER_METHODS.find((m) => !op.pathMethods.includes(m))!;
    const res = await h.call(op, { ...spec, method }, ctx);
    expect([res.status, res.body, res.headers.get('allow')]).toEqual([405, errorBody(4050), op.pathMethods.join(', ')]);
  });
  add(415, 'answers 415 (4150) with Accept-Encoding when the body is in an unsupported Content-Encoding', async (h, ctx, spec) => {
    // An optional body may be left out of the success request; this case needs one.
    const res = await h.call(op, { ...spec, body: spec.body ?? {}, headers: { ...spec.headers, 'content-encoding': 'compress' } }, ctx);
    expect([res.status, res.body, res.headers.get('accept-encoding')]).toEqual([415, errorBody(4150), expect.stringContaining('gzip')]);
  });
  add(422, 'answers 422 (4220) naming an unknown query parameter', async (h, ctx, spec) => {
    const res = await h.call(op, { ...spec, query: { ...spec.query, [UNKNOWN_PARAMETER]: '1' } }, ctx);
    const unknown = { in: 'query', name: UNKNOWN_PARAMETER, message: 'is not a known parameter' };
    expect([res.status, res.body]).toEqual([422, errorBody(4220, { errors: [unknown] })]);
    expect((res.body as { messages: string }).messages).toContain(UNKNOWN_PARAMETER);
  });
  add(429, 'answers 429 (4290) with Retry-After equal to t once the window is full', async (h, ctx, spec) => {
    for (let i = 0; i < WORKSPACE_QUOTA; i++) await h.limiter.consume(ctx.workspace.workspaceId, Date.now());
    const res = await h.call(op, spec, ctx);
    expect([res.status, res.body]).toEqual([429, errorBody(4290)]);
    const limit = parseRateLimit(res.headers.get('ratelimit'));
    expect(limit).toEqual({ policy: 'workspace', r: 0, t: expect.any(Number) });
    expect(limit.t).toBeGreaterThanOrEqual(1);
    expect(limit.t).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(res.headers.get('retry-after')).toBe(String(limit.t));
    expect(res.headers.get('ratelimit-policy')).toBe(`"workspace";q=${WORKSPACE_QUOTA};w=${WINDOW_SECONDS}`);
  });
  add(500, 'answers 500 (5000) without internals when the handler fails, and logs the cause', async (h, ctx, spec) => {
    const res = await h.call(op, spec, ctx, h.failing);
    expect([res.status, res.body]).toEqual([500, errorBody(5000)]);
    for (const leak of ['SQLITE', 'contract_probe_column', '/srv/', '.ts', ' at ', 'stack']) expect(res.text).not.toContain(leak);
    const requestId = res.headers.get('x-request-id')!;
    const logged = h.failing.logLines().filter((line) => line.includes(requestId) && line.includes(INTERNAL_CAUSE.split(' (')[0]!));
    expect(logged.length).toBeGreaterThan(0);
  });
  add(503, 'answers 503 (5030) with Retry-After and no request remaining while the rate limit\'s store does not answer', async (h, ctx, spec) => {
    const res = await h.call(op, spec, ctx, h.unavailable);
    expect([res.status, res.body, res.headers.get('retry-after')]).toEqual([503, errorBody(5030), '1']);
    expect(parseRateLimit(res.headers.get('ratelimit'))).toEqual({ policy: 'workspace', r: 0, t: 1 });
  });
  // Reads never wait for the write lock; every change does.
  if (op.method === 'get' || CHANGES_NOTHING.has(op.operationId)) return cases;
  add(503, 'answers 503 (5030) with Retry-After while another connection holds the write lock (an import in another process)', async (h, ctx, spec) => {
    const lock = holdWriteLock((ctx.store as SqliteStore).db.name);
    let res: ObservedResponse;
    try {
      res = await h.call(op, spec, ctx);
    } finally {
      lock.release();
    }
    expect([res.status, res.body, res.headers.get('retry-after')]).toEqual([503, errorBody(5030), '1']);
  }, true);
  return cases;
}

function scenarioCases(op: ContractOperation, scenario: OperationScenario): ContractCase[] {
  const cases: ContractCase[] = [];
  for (const [statusText, entry] of Object.entries(scenario.statuses)) {
    const status = Number(statusText);
    for (const [name, build] of namedCases(entry)) {
      cases.push({
        status,
        title: `answers ${status}${name ? ` when ${name}` : ''} (scenario)`,
        run: async (h) => {
          const ctx = await h.context();
          const res: ObservedResponse = await h.call(op, await build(ctx), ctx);
          expect(res.status, res.text.slice(0, 500)).toBe(status);
          await scenario.expect?.[status]?.(res, ctx);
        },
      });
    }
  }
  return cases;
}

/**
 * Every case of one operation: the area's own, then the generic ones, by status. With the `head`
 * operation beside a GET, each GET request of each case is also sent as HEAD and compared.
 */
export function casesFor(op: ContractOperation, scenario: OperationScenario): ContractCase[] {
  const cases = [...scenarioCases(op, scenario), ...genericCases(op, scenario)].sort((a, b) => a.status - b.status);
  if (op.method !== 'get') return cases;
  return cases.map((c) => ({ ...c, run: (h: Harness) => c.run(mirroredAsHead(h)) }));
}

/** Documented statuses nothing produces: each must get a scenario entry (or leave the contract). */
export function uncoveredStatuses(op: ContractOperation, scenario: OperationScenario | undefined): number[] {
  return op.statuses.filter((status) => {
    if (scenario?.statuses[status] !== undefined) return false;
    return !(scenario && successBuilder(scenario) && isGeneric(op, status));
  });
}
