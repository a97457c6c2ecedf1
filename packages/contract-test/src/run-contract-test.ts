import { bundledContract } from '@workspace-read-api/contract/documents.js';
import { checkAdminWrites, CREATED_NAME } from './admin-writes.js';
import { checkConditional, checkHeadMatchesGet, getTwin } from './conditional-and-head-cases.js';
import { mintScopeKeys, revokeMintedKeys } from './scope-keys.js';
import { coverage } from './coverage.js';
import { credentialFor, credentialWays, requiredScopes, schemePrefix, takesOnly } from './credentials.js';
import { curlLine, maskSecrets } from './curl-line.js';
import { reached, status } from './expectations.js';
import { BodyTooLong, DEFAULT_MAX_ANSWER_BYTES, DEFAULT_TIMEOUT_MS } from './read-bounds.js';
import { sendRequest, type Credential, type ExchangeBounds, type ObservedResponse } from './http-exchange.js';
import { OpenApiContract, type Operation } from './openapi-contract.js';
import { plannedReads } from './narrowed-plan.js';
import { Pacer } from './pacing.js';
import { DISCOVERY, discoverReads, pathParameters, varyRead, type ReadyRead } from './read-cases.js';
import { checkAuthenticationOf, checkChecksum, checkMethods, checkNotFoundOf, checkOrder, checkParametersOf, checkScopeOf, checkSecuritySchemes, SCOPE_REFUSAL, type ScopedKey } from './refusal-cases.js';
import { noAnswer, RunContext, type CaseResult, type NotReached } from './run-context.js';
import { SeededValues } from './seeded-values.js';
import { quoted } from './terminal-text.js';
import { BUDGET_SPENT, EVERY_CALL, READ_METHODS, type ContractTestReport, type FailureReport } from './report.js';
import { CHECKS, LEFT_BY_PLAN, type CheckKind } from './markers.js';

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
  /** How long one request may take, its answer's body included (`--request-timeout`); 30 s by default. */
  timeoutMs?: number | undefined;
  /** The most of an answer's body the run reads (`--max-body-bytes`); `DEFAULT_MAX_ANSWER_BYTES` by default. */
  maxBodyBytes?: number | undefined;
  /** The contract to hold the server to; the bundled one (generated/openapi.json) by default. */
  document?: object;
  /** Draws of valid and of invalid values per operation (`--examples`). */
  examples?: number | undefined;
  /** Every check on every operation, paced to the limits, instead of the default plan (`--full`). */
  full?: boolean | undefined;
  /** Any slower answer fails (`--max-response-time`). */
  maxResponseTimeMs?: number | undefined;
  /**
   * Only these operations are checked (`--operations`); of the others only the reads that answer
   * the ids these need are sent (packages/contract-test/src/narrowed-plan.ts).
   */
  operations?: readonly string[] | undefined;
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

/**
 * One operation per path to send a wrong method to, with the credential every operation of the
 * path takes: the member token where it can (administration paths), else the key. A path that
 * also takes a member token is checked only with one, so that the answer is about the method and
 * not about which kind of credential the path prefers.
 */
/** Draws of valid and of invalid values per operation when `--examples` is not given. */
const DEFAULT_EXAMPLES = 3;

/**
 * The default plan's requests per lane: at the default limits (120 requests a minute per
 * workspace, 30 failed authentications a minute per address) within three windows of the first
 * (two waits for a free window, about a minute each: 290 requests waited as long) and less than
 * one of the second, so that a run with its waits ends within three minutes. Measured: 290 and 55
 * took 187 s, over the mark.
 */
const DEFAULT_PLAN_ALLOWANCE = { workspace: 350, client: 28 };

/**
 * Every operation with a request that reaches its authentication: the read as discovered, else
 * (writes, operations of a credential the run was not given) ids found so far, or ids that name
 * nothing, since authentication comes before everything else. The credential is the one the
 * operation takes; its prefix makes the unissued one of the right kind.
 */
function authenticationTargets(ctx: RunContext, ready: readonly ReadyRead[], withCredential: ReadonlyArray<{ op: Operation; credential: Credential }>, key: Credential): ReadyRead[] {
  return ctx.contract.operations.map((op) => {
    const read = ready.find((r) => r.op === op);
    if (read) return read;
    const values: Record<string, string> = {};
    for (const param of pathParameters(op)) values[param.name] = ctx.ids.forPathParameter(op, param.name)[0] ?? ctx.values.uuid();
    const credential = withCredential.find((w) => w.op === op)?.credential
      ?? { ...key, label: 'token', value: `${schemePrefix(ctx.contract, op)}x`, envVar: undefined };
    return { op, credential, pathValues: [values] };
  });
}

function methodTargets(ctx: RunContext, key: Credential, token: Credential | undefined): ReadyRead[] {
  const byPath = new Map<string, Operation[]>();
  for (const op of ctx.contract.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const targets: ReadyRead[] = [];
  for (const ops of byPath.values()) {
    const first = ops[0]!;
    const takenByAll = (c: Credential) => ops.every((op) => credentialWays(ctx.contract, op, c.label, c.value).length > 0);
    if (token && takenByAll(token)) targets.push({ op: first, credential: credentialFor(ctx.contract, first, [token])!, pathValues: [{}] });
    else if (takenByAll(key) && ops.every((op) => takesOnly(ctx.contract, op, key.value))) targets.push({ op: first, credential: credentialFor(ctx.contract, first, [key])!, pathValues: [{}] });
    else if (!token) ctx.skip(first, 'a wrong method → 405', 'a path of the member token\'s API: give --token');
  }
  return targets;
}

/** The `info.version` the server publishes (null when it publishes none), or why it does not answer at all. */
async function servedContractVersion(baseUrl: string, bounds: ExchangeBounds): Promise<{ version: string | null } | { unreachable: string }> {
  let response: ObservedResponse;
  try {
    response = await sendRequest(baseUrl, { method: 'GET', path: '/openapi.json', query: [] }, bounds);
  } catch (err) {
    // A document past the bound is no contract this checker reads; the run goes on without its version.
    if (err instanceof BodyTooLong) return { version: null };
    return { unreachable: noAnswer(err, bounds.timeoutMs) };
  }
  const version = (response.json as { info?: { version?: unknown } } | undefined)?.info?.version;
  return { version: response.status === 200 && typeof version === 'string' ? version : null };
}

/** What each kind of check found on each operation, for the summary table. */
function checkTable(ctx: RunContext, only: readonly string[] | undefined): ContractTestReport['check_table'] {
  return ctx.contract.operations.filter((op) => only === undefined || only.includes(op.operationId)).map((op) => {
    const checks: ContractTestReport['check_table'][number]['checks'] = {};
    for (const kind of CHECKS) {
      const cases = ctx.cases.filter((c) => c.operationId === op.operationId && c.check === kind);
      const left = ctx.notReached.some((n) => n.operationId === op.operationId && n.check === kind && (n.reason === LEFT_BY_PLAN || n.reason === BUDGET_SPENT));
      checks[kind] = cases.some((c) => c.problems.length > 0) ? 'failed' : cases.length > 0 ? 'passed' : left ? 'left' : 'none';
    }
    return { operation_id: op.operationId, checks };
  });
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
  const bounds: ExchangeBounds = { timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_ANSWER_BYTES };
  const pacer = new Pacer({
    budget: options.budget,
    onWait: (ms, why) => progress(`waiting ${(ms / 1000).toFixed(1)} s (${why})`),
  });
  const ctx = new RunContext(contract, pacer, new SeededValues(options.seed), { ...bounds, baseUrl: options.baseUrl, maxResponseTimeMs: options.maxResponseTimeMs });
  const served = await servedContractVersion(options.baseUrl, bounds);
  let limited: { credential: Credential; granted: string[] } | undefined;
  if ('unreachable' in served) {
    // Nothing else can be learnt: one failure says so, instead of one per request.
    ctx.cases.push({ operationId: '(server)', method: 'GET', path: '/openapi.json', title: 'reach the server', request: { method: 'GET', path: '/openapi.json', query: [] }, status: null, problems: [served.unreachable], durationMs: 0, check: 'positive_data_acceptance' });
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
  const examples = options.examples ?? DEFAULT_EXAMPLES;
  // The default plan keeps within about three minutes at the default limits; --full lifts it.
  if (!options.full) pacer.allowance = DEFAULT_PLAN_ALLOWANCE;
  const reads = withCredential.filter(({ op }) => READ_METHODS.includes(op.method));
  // The read that answers for any valid key, whatever its scopes, tells the run who it is.
  const isIdentity = (r: { op: Operation; credential: Credential }) => r.credential.label === 'key' && pathParameters(r.op).length === 0 && requiredScopes(contract, r.op).length === 0;
  const writing = options.allowWrites && token !== undefined;
  const planned = options.operations && plannedReads(contract, options.operations, {
    reads: options.limitedKey !== undefined || writing ? reads.filter(isIdentity).slice(0, 1).map((r) => r.op) : [],
    idNames: writing ? ['workspace_id'] : [],
  });
  const ready = await ctx.as('positive_data_acceptance', () => discoverReads(ctx, planned ? reads.filter((r) => planned.has(r.op)) : reads, options.full ? DISCOVERY.full : DISCOVERY.plan));

  const identity = ready.find(isIdentity);
  const scopedKeys: ScopedKey[] = [];
  if (options.limitedKey !== undefined) {
    const credential = userCredential('limited key', options.limitedKey, 'WORKSPACE_API_LIMITED_KEY');
    const answer = identity && await ctx.as('scope_refusal', () => ctx.exchange(identity.op, 'who the limited key is', { method: 'GET', path: identity.op.path, query: [], credential }, status(200), { essential: true }));
    const scopes = (answer?.json as { data?: { key?: { scopes?: unknown } } } | undefined)?.data?.key?.scopes;
    if (Array.isArray(scopes)) {
      limited = { credential, granted: scopes.map(String) };
      scopedKeys.push(limited);
      progress(`scopes: the limited key holds ${limited.granted.map(quoted).join(', ') || 'none'}`);
    } else if (identity) {
      ctx.skip(identity.op, 'the scope refusals', 'the limited key\'s scopes could not be read');
    }
  }
  const workspaceId = ctx.ids.forName('workspace_id')[0];
  const minting = writing && workspaceId !== undefined;
  const minted = minting ? await ctx.as('scope_refusal', () => mintScopeKeys(ctx, token, workspaceId, CREATED_NAME)) : [];
  scopedKeys.push(...minted);

  try {
    const heads = ready.filter((r) => r.op.method === 'HEAD' && getTwin(r, ready));
    const chosen = (reads: readonly ReadyRead[]) => (options.operations === undefined ? [...reads] : reads.filter((r) => options.operations!.includes(r.op.operationId)));
    /** `everyTarget`: a check each operation it applies to must get, sent before any repeat of lower value. */
    type Kind = { check: CheckKind; targets: ReadyRead[]; run: (read: ReadyRead) => Promise<void>; everyTarget?: boolean };
    const scoped = ready.filter((r) => requiredScopes(contract, r.op).length > 0);
    // With one key per scope, whether a key holding the scope is answered is told once per set of
    // scopes; the refusal, on every operation.
    const holdingChecked = new Set<string>();
    const holdingToo = (r: ReadyRead) => {
      const scopes = requiredScopes(contract, r.op).join(' ');
      const first = !holdingChecked.has(scopes);
      holdingChecked.add(scopes);
      return options.full === true || first;
    };
    const kinds = ([
      { check: 'ignored_auth', targets: authenticationTargets(ctx, ready, withCredential, key), run: (r) => checkAuthenticationOf(ctx, r) },
      { check: 'conditional_request', targets: ready.filter((r) => r.op.method === 'GET'), run: (r) => checkConditional(ctx, r) },
      { check: 'head_matches_get', targets: heads, run: (r) => checkHeadMatchesGet(ctx, r, getTwin(r, ready)!) },
      { check: 'scope_refusal', targets: scopedKeys.length > 0 ? scoped : [], run: (r) => checkScopeOf(ctx, r, scopedKeys, { holdingToo: holdingToo(r) }), everyTarget: true },
      { check: 'negative_data_rejection', targets: ready.filter((r) => pathParameters(r.op).length > 0), run: (r) => checkNotFoundOf(ctx, r), everyTarget: true },
      { check: 'unsupported_method', targets: methodTargets(ctx, key, token), run: (r) => checkMethods(ctx, [r]), everyTarget: true },
      { check: 'negative_data_rejection', targets: ready, run: (r) => checkParametersOf(ctx, r, examples) },
      { check: 'positive_data_acceptance', targets: ready, run: (r) => varyRead(ctx, r, examples) },
    ] satisfies Kind[]).map((kind): Kind => ({ ...kind, targets: chosen(kind.targets) }));
    if (scopedKeys.length === 0) {
      await ctx.as('scope_refusal', async () => {
        for (const r of chosen(scoped)) ctx.skip(r.op, SCOPE_REFUSAL, 'scope refusal not checked: give --limited-key (a key lacking a scope), or --token with --allow-writes (a key minted per scope)');
      });
    }
    // First every kind of check once, so that even a short plan or budget runs each; after the
    // order of checks and the writes, the checks every operation must get (scope refusal, 404,
    // 405); then the rest, round by round.
    progress('every kind of check once');
    for (const kind of kinds) {
      const first = kind.targets[0];
      if (first) await ctx.as(kind.check, () => kind.run(first));
    }
    await ctx.as('ignored_auth', async () => (ready[0] ? checkChecksum(ctx, ready[0]) : undefined));
    await ctx.as('positive_data_acceptance', () => checkSecuritySchemes(ctx, chosen(ready)));
    await ctx.as('order_of_checks', () => checkOrder(ctx, chosen(ready), limited));

    if (options.allowWrites && token && workspaceId) {
      progress('administration writes on objects of the run, followed through the contract\'s links');
      await ctx.as('stateful_links', () => checkAdminWrites(ctx, token, workspaceId, {
        webhookUrl: options.webhookUrl,
        identity: identity && { op: identity.op, credential: identity.credential },
        examples, full: options.full ?? false, operations: options.operations,
      }));
    } else {
      for (const { op } of withCredential.filter(({ op }) => !READ_METHODS.includes(op.method))) ctx.skip(op, EVERY_CALL, 'a write: sent only with --allow-writes');
    }

    progress('scope refusal, 404 and 405 on every operation they apply to');
    // A HEAD twin's refusals repeat its GET's: where the plan runs out, every other operation has had its own.
    const everyTarget = kinds.filter((k) => k.everyTarget).flatMap((kind) => kind.targets.slice(1).map((target) => ({ kind, target })));
    for (const { kind, target } of [...everyTarget.filter((e) => e.target.op.method !== 'HEAD'), ...everyTarget.filter((e) => e.target.op.method === 'HEAD')]) {
      await ctx.as(kind.check, () => kind.run(target));
    }

    progress(options.full ? 'every check on every operation' : 'every check on every operation, as far as the default plan goes');
    // Round by round across the kinds, so that where the default plan stops every kind went as far.
    const rounds = kinds.filter((k) => !k.everyTarget);
    for (let i = 1; rounds.some((k) => i < k.targets.length); i += 1) {
      for (const kind of rounds) {
        const target = kind.targets[i];
        if (target) await ctx.as(kind.check, () => kind.run(target));
      }
    }
  } finally {
    if (minted.length > 0 && token && workspaceId) await ctx.as('scope_refusal', () => revokeMintedKeys(ctx, token, workspaceId, minted));
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
      check_table: checkTable(ctx, options.operations),
      unreached_operations: unreachedOperations(ctx).filter((u) => options.operations === undefined || options.operations.includes(u.operation_id)).map((u) => ({ ...u, allowed: (options.allowUnreached ?? []).includes(u.operation_id) })),
    };
    return { report, cases: ctx.cases, notReached: ctx.notReached };
  }
}
