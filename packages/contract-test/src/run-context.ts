import { reached, type Expectation } from './expectations.js';
import { BodyTooLong } from './read-bounds.js';
import { sendRequest, type ExchangeBounds, type ObservedResponse, type OutgoingRequest } from './http-exchange.js';
import { LinkPool } from './contract-links.js';
import { IdPool } from './id-discovery.js';
import type { OpenApiContract, Operation } from './openapi-contract.js';
import { BudgetExhausted, PlanLimitReached, type Pacer } from './pacing.js';
import { contractProblems } from './response-check.js';
import type { SeededValues } from './seeded-values.js';
import { BUDGET_SPENT, EVERY_CALL, LEFT_BY_PLAN, type CheckKind } from './markers.js';

/** One request of the run and what was wrong with its answer. */
export interface CaseResult {
  operationId: string;
  method: string;
  /** The templated path of the operation. */
  path: string;
  /** What the case checks, e.g. `range=7d` or `no key → 401 4021`. */
  title: string;
  request: OutgoingRequest;
  /** null when no answer arrived. */
  status: number | null;
  problems: string[];
  durationMs: number;
  /** The kind of check the case belongs to (`CHECKS`), for the JUnit cases and the summary table. */
  check: CheckKind;
}

/** Something the run meant to check and did not, and why. */
export interface NotReached {
  operationId: string;
  what: string;
  reason: string;
  check?: CheckKind;
}

/**
 * Why a request got no complete answer: its body past the bound, the time bound (each names the
 * option that moves it), or the system's error code (`ECONNREFUSED` …).
 */
export function noAnswer(err: unknown, timeoutMs: number): string {
  if (err instanceof BodyTooLong) return err.message;
  if ((err as Error).name === 'TimeoutError') return `no complete answer within ${timeoutMs / 1000} s (--request-timeout): the request was abandoned`;
  const cause = (err as Error).cause as { code?: string; message?: string; errors?: Array<{ code?: string }> } | undefined;
  const why = cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (err as Error).name;
  return `no answer: ${(err as Error).message}${why ? ` (${why})` : ''}`;
}

/** What every part of a run shares: the contract, the pacing, the ids found so far and the results. */
export class RunContext {
  readonly cases: CaseResult[] = [];
  readonly notReached: NotReached[] = [];
  /** Statuses seen per operation, for the coverage table. */
  readonly observed = new Map<string, Set<number>>();
  readonly ids = new IdPool();
  /** Path values the contract's `links` resolved from the answers so far. */
  readonly links: LinkPool;

  constructor(
    readonly contract: OpenApiContract,
    readonly pacer: Pacer,
    readonly values: SeededValues,
    private readonly settings: ExchangeBounds & { baseUrl: string; maxResponseTimeMs?: number | undefined },
  ) {
    this.links = new LinkPool(contract.linkTargets());
  }

  /** The kind of check the cases sent from now on belong to. */
  check: CheckKind = 'positive_data_acceptance';

  /** Runs `work` with its cases filed under `kind`. */
  async as<T>(kind: CheckKind, work: () => Promise<T>): Promise<T> {
    const before = this.check;
    this.check = kind;
    try {
      return await work();
    } finally {
      this.check = before;
    }
  }

  /**
   * Sends one request of a case and records the result: every answer is checked against the
   * contract and against the case's expectation; a successful answer's ids are filed for later
   * cases. Answers undefined when the budget is spent (the case is recorded as not reached).
   */
  async exchange(
    op: Operation,
    title: string,
    request: OutgoingRequest,
    expectation: Expectation,
    options: { essential?: boolean; deferFailure?: boolean } = {},
  ): Promise<ObservedResponse | undefined> {
    const lane = request.credential && !request.credential.failsAuthentication ? 'workspace' : 'client';
    const started = performance.now();
    let response: ObservedResponse;
    try {
      response = await this.pacer.send(lane, () => sendRequest(this.settings.baseUrl, request, this.settings), {
        essential: options.essential ?? false,
        onThrottled: (throttled) => this.record(op, `${title} (throttled, sent again)`, request, throttled, contractProblems(this.contract, op, throttled)),
      });
    } catch (err) {
      if (err instanceof BudgetExhausted) {
        this.skip(op, title, BUDGET_SPENT);
        return undefined;
      }
      if (err instanceof PlanLimitReached) {
        this.skip(op, title, LEFT_BY_PLAN);
        return undefined;
      }
      this.cases.push({
        operationId: op.operationId, method: request.method, path: op.path, title, request, status: err instanceof BodyTooLong ? err.status : null,
        problems: [noAnswer(err, this.settings.timeoutMs)],
        durationMs: performance.now() - started,
        check: this.check,
      });
      return undefined;
    }
    this.record(op, title, request, response, [...contractProblems(this.contract, op, response), ...expectation(response)], options.deferFailure);
    if (response.status >= 200 && response.status < 300) this.ids.harvest(op, response.json);
    this.links.file(op, request, response);
    return response;
  }

  /**
   * Checks an answer already received against another operation's documentation (a wrong method
   * on a path is one answer, which every operation of the path documents).
   */
  checkAgainst(op: Operation, title: string, request: OutgoingRequest, response: ObservedResponse, expectation: Expectation): void {
    this.record(op, title, request, response, [...contractProblems(this.contract, op, response), ...expectation(response)]);
  }

  /**
   * One draw of a property: sent and checked like any case, but a failing one is held back (a
   * shrinking may find a smaller one) until `recordTrial` reports the one chosen. Answers the
   * problems and the answer, or undefined when nothing was sent (budget, plan).
   */
  async trial(op: Operation, title: string, request: OutgoingRequest, expectation: Expectation): Promise<{ problems: string[]; response: ObservedResponse } | undefined> {
    const response = await this.exchange(op, title, request, expectation, { deferFailure: true });
    if (!response) return undefined;
    return { problems: this.heldBack.get(request)?.problems ?? [], response };
  }

  /** Reports the held-back failing draw of this request, under a new title; the others are dropped. */
  recordTrial(request: OutgoingRequest, title: string): void {
    const held = this.heldBack.get(request);
    if (held) this.cases.push({ ...held, title });
    this.heldBack.clear();
  }

  private readonly heldBack = new Map<OutgoingRequest, CaseResult>();

  skip(op: Operation, what: string, reason: string): void {
    this.notReached.push({ operationId: op.operationId, what, reason, check: this.check });
  }

  /** Forgets that an operation was not reached at all once a later phase answered it with a 2xx. */
  forgetReachedOperations(): void {
    const answered = new Set(this.cases.filter((c) => {
      const op = this.contract.operation(c.operationId);
      return c.status !== null && op !== undefined && reached(op, c.status);
    }).map((c) => c.operationId));
    const still = this.notReached.filter((n) => !(n.what === EVERY_CALL && answered.has(n.operationId)));
    this.notReached.splice(0, this.notReached.length, ...still);
  }

  private record(op: Operation, title: string, request: OutgoingRequest, response: ObservedResponse, problems: string[], deferFailure = false): void {
    const seen = this.observed.get(op.operationId) ?? new Set<number>();
    seen.add(response.status);
    this.observed.set(op.operationId, seen);
    const max = this.settings.maxResponseTimeMs;
    const result: CaseResult = {
      operationId: op.operationId, method: request.method, path: op.path, title, request, status: response.status,
      problems: [
        // A server error fails whatever the contract documents: it is never an answer a client can act on.
        ...(response.status >= 500 && response.status !== 503 ? [`not_a_server_error: answered ${response.status}`] : []),
        ...(max !== undefined && response.durationMs > max ? [`max_response_time: answered after ${Math.round(response.durationMs)} ms, more than --max-response-time ${max}`] : []),
        ...problems,
      ],
      durationMs: response.durationMs,
      check: this.check,
    };
    if (deferFailure && result.problems.length > 0) this.heldBack.set(request, result);
    else this.cases.push(result);
  }
}
