import { bundledContract } from '../contract.js';
import { checkAdminWrites } from './admin-writes.js';
import { coverage } from './coverage.js';
import { credentialWays, requiredScopes, takesOnly } from './credentials.js';
import { curlLine, maskSecrets } from './curl-line.js';
import { reached, status } from './expectations.js';
import type { Credential } from './http-exchange.js';
import { OpenApiContract, type Operation } from './openapi-contract.js';
import { Pacer } from './pacing.js';
import { discoverReads, pathParameters, varyReads } from './read-cases.js';
import { checkAuthentication, checkMethods, checkOrder, checkParameters, checkScopes, checkSecuritySchemes } from './refusal-cases.js';
import { noAnswer, RunContext, type CaseResult, type NotReached } from './run-context.js';
import { SeededValues } from './seeded-values.js';
import { BUDGET_SPENT, EVERY_CALL, READ_METHODS, type ContractTestReport, type FailureReport } from './report.js';

export interface ContractTestOptions {
  baseUrl: string;
  key: string;
  token?: string | undefined;
  limitedKey?: string | undefined;
  allowWrites: boolean;
  budget?: number | undefined;
  seed: number;
  /** Where the webhook the run creates (with allowWrites) points. */
  webhookUrl: string;
  timeoutMs?: number;
  /** The contract to hold the server to; the bundled one (generated/openapi.json) by default. */
  document?: object;
  /** Operations the run may leave unreached without failing (`--allow-unreached`). */
  allowUnreached?: readonly string[];
  /** Progress lines (waits for the rate limit, phases), for people watching. */
  progress?: (line: string) => void;
}

export interface ContractTestRun {
  report: ContractTestReport;
  cases: CaseResult[];
  notReached: NotReached[];
}

function userCredential(label: string, value: string, envVar: string): Credential {
  return { label, value, header: 'Authorization', bearer: true, secret: true, envVar };
}

/** The first way the operation takes one of the credentials, in the order given. */
function credentialFor(contract: OpenApiContract, op: Operation, credentials: readonly Credential[]): Credential | undefined {
  for (const c of credentials) {
    const way = credentialWays(contract, op, c.label, c.value)[0];
    if (way) return { ...c, header: way.header, bearer: way.bearer };
  }
  return undefined;
}

/**
 * One operation per path to send a wrong method to, with the credential every operation of the
 * path takes: the member token where it can (administration paths), else the key. A path that
 * also takes a member token is checked only with one, so that the answer is about the method and
 * not about which kind of credential the path prefers.
 */
function methodTargets(ctx: RunContext, key: Credential, token: Credential | undefined): Array<{ op: Operation; credential: Credential }> {
  const byPath = new Map<string, Operation[]>();
  for (const op of ctx.contract.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const targets: Array<{ op: Operation; credential: Credential }> = [];
  for (const ops of byPath.values()) {
    const first = ops[0]!;
    const takenByAll = (c: Credential) => ops.every((op) => credentialWays(ctx.contract, op, c.label, c.value).length > 0);
    if (token && takenByAll(token)) targets.push({ op: first, credential: credentialFor(ctx.contract, first, [token])! });
    else if (takenByAll(key) && ops.every((op) => takesOnly(ctx.contract, op, key.value))) targets.push({ op: first, credential: credentialFor(ctx.contract, first, [key])! });
    else if (!token) ctx.skip(first, 'a wrong method → 405', 'a path of the member token\'s API: give --token');
  }
  return targets;
}

/** The `info.version` the server publishes (null when it publishes none), or why it does not answer at all. */
async function servedContractVersion(baseUrl: string, timeoutMs: number): Promise<{ version: string | null } | { unreachable: string }> {
  const base = new URL(baseUrl);
  let response: Response;
  try {
    response = await fetch(new URL(`${base.pathname.replace(/\/$/, '')}/openapi.json`, base), { signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    return { unreachable: noAnswer(err) };
  }
  try {
    return { version: response.ok ? ((await response.json()) as { info?: { version?: string } }).info?.version ?? null : null };
  } catch {
    return { version: null };
  }
}

/** Operations no answer reached (a 2xx, or the state `x-absent-state` names), with the reason the run recorded. */
function unreachedOperations(ctx: RunContext): Array<{ operation_id: string; reason: string }> {
  if (ctx.cases.some((c) => c.operationId === '(server)')) return [];
  return ctx.contract.operations.filter((op) => !ctx.cases.some((c) => c.operationId === op.operationId && c.status !== null && reached(op, c.status)))
    .map((op) => {
      const statuses = [...new Set(ctx.cases.filter((c) => c.operationId === op.operationId && c.status !== null).map((c) => c.status))];
      const recorded = ctx.notReached.find((n) => n.operationId === op.operationId && n.what === EVERY_CALL)?.reason;
      return { operation_id: op.operationId, reason: recorded ?? (statuses.length > 0 ? `no request reached it (answered ${statuses.join(', ')})` : 'no request was sent to it') };
    });
}

/**
 * Replays the contract against a running server, black-box: discovers real ids from the lists,
 * calls every read across its parameters, provokes every refusal it can from outside, and with a
 * member token reads (and with allowWrites, writes on objects of its own) the administration API.
 */
export async function runContractTest(options: ContractTestOptions): Promise<ContractTestRun> {
  const started = performance.now();
  const progress = options.progress ?? (() => undefined);
  const contract = new OpenApiContract(options.document ?? bundledContract.openApi());
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pacer = new Pacer({
    budget: options.budget,
    onWait: (ms, why) => progress(`waiting ${(ms / 1000).toFixed(1)} s (${why})`),
  });
  const ctx = new RunContext(contract, pacer, new SeededValues(options.seed), { baseUrl: options.baseUrl, timeoutMs });
  const served = await servedContractVersion(options.baseUrl, timeoutMs);
  let limited: { credential: Credential; granted: string[] } | undefined;
  if ('unreachable' in served) {
    // Nothing else can be learnt: one failure says so, instead of one per request.
    ctx.cases.push({ operationId: '(server)', method: 'GET', path: '/openapi.json', title: 'reach the server', request: { method: 'GET', path: '/openapi.json', query: [] }, status: null, problems: [served.unreachable], durationMs: 0 });
  }

  const key = userCredential('key', options.key, 'WORKSPACE_API_KEY');
  const token = options.token === undefined ? undefined : userCredential('token', options.token, 'WORKSPACE_API_TOKEN');
  const credentials = [key, ...(token ? [token] : [])];
  const withCredential = contract.operations.flatMap((op) => {
    const credential = credentialFor(contract, op, credentials);
    if (!credential) ctx.skip(op, EVERY_CALL, 'takes a member token: give --token');
    return credential ? [{ op, credential }] : [];
  });

  progress(`reading ${contract.title} ${contract.version} at ${options.baseUrl}`);
  if ('unreachable' in served) return finish();
  const ready = await discoverReads(ctx, withCredential.filter(({ op }) => READ_METHODS.includes(op.method)));
  // Early, so a small --budget still spends some of it on authentication.
  await checkAuthentication(ctx, ready);
  progress('variations across every parameter');
  await varyReads(ctx, ready);
  progress('refusals: parameters, methods, scopes, order of checks');
  await checkSecuritySchemes(ctx, ready);
  await checkParameters(ctx, ready);
  await checkMethods(ctx, methodTargets(ctx, key, token));

  // The read that answers for any valid key, whatever its scopes, tells the run who it is.
  const identity = ready.find((r) => r.credential.label === 'key' && pathParameters(r.op).length === 0 && requiredScopes(contract, r.op).length === 0);
  if (options.limitedKey !== undefined) {
    const credential = userCredential('limited key', options.limitedKey, 'WORKSPACE_API_LIMITED_KEY');
    const answer = identity && await ctx.exchange(identity.op, 'who the limited key is', { method: 'GET', path: identity.op.path, query: [], credential }, status(200));
    const scopes = (answer?.json as { data?: { key?: { scopes?: unknown } } } | undefined)?.data?.key?.scopes;
    if (Array.isArray(scopes)) {
      limited = { credential, granted: scopes.map(String) };
      progress(`scopes: the limited key holds ${limited.granted.join(', ') || 'none'}`);
      await checkScopes(ctx, ready, credential, limited.granted);
    } else if (identity) {
      ctx.skip(identity.op, 'the scope refusals', 'the limited key\'s scopes could not be read');
    }
  }
  await checkOrder(ctx, ready, limited);

  const writes = withCredential.filter(({ op }) => !READ_METHODS.includes(op.method));
  const workspaceId = ctx.ids.forName('workspace_id')[0];
  if (options.allowWrites && token && workspaceId) {
    progress('administration writes on objects of the run');
    await checkAdminWrites(ctx, token, workspaceId, {
      webhookUrl: options.webhookUrl,
      identity: identity && { op: identity.op, credential: identity.credential },
    });
  } else {
    for (const { op } of writes) ctx.skip(op, EVERY_CALL, 'a write: sent only with --allow-writes');
  }

  return finish();

  function finish(): ContractTestRun {
    // A read discovery could not reach (no id listed yet) may have run since, on objects of the run.
    ctx.forgetReachedOperations();

    const failures = ctx.cases.filter((c) => c.problems.length > 0).map((c): FailureReport => ({
      operation_id: c.operationId,
      title: c.title,
      status: c.status,
      problems: c.problems.map(maskSecrets),
      curl: curlLine(options.baseUrl, c.request),
    }));
    const report: ContractTestReport = {
      base_url: options.baseUrl,
      contract: { title: contract.title, version: contract.version },
      served_contract_version: 'version' in served ? served.version : null,
      seed: options.seed,
      requests: pacer.sent,
      waited_ms: Math.round(pacer.waitedMs),
      duration_ms: Math.round(performance.now() - started),
      budget: options.budget ?? null,
      budget_spent: ctx.notReached.some((n) => n.reason === BUDGET_SPENT),
      checks: ctx.cases.length,
      failures,
      coverage: coverage(ctx, contract.operations, { limitedKey: limited !== undefined, token: token !== undefined, allowWrites: options.allowWrites }),
      not_reached: ctx.notReached.map((n) => ({ operation_id: n.operationId, what: n.what, reason: n.reason })),
      unreached_operations: unreachedOperations(ctx).map((u) => ({ ...u, allowed: (options.allowUnreached ?? []).includes(u.operation_id) })),
    };
    return { report, cases: ctx.cases, notReached: ctx.notReached };
  }
}
