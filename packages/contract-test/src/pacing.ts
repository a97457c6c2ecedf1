import type { ObservedResponse } from './http-exchange.js';

/** `"workspace";r=117;t=42` (the IETF RateLimit field the contract documents). */
export function parseRateLimit(value: string | null): { policy: string; remaining: number; resetSeconds: number } | undefined {
  const match = /^"([^"]+)";r=(\d+);t=(\d+)$/.exec(value?.trim() ?? '');
  return match ? { policy: match[1]!, remaining: Number(match[2]), resetSeconds: Number(match[3]) } : undefined;
}

/** `"workspace";q=120;w=60`. */
export function parseRateLimitPolicy(value: string | null): { policy: string; quota: number; windowSeconds: number } | undefined {
  const match = /^"([^"]+)";q=(\d+);w=(\d+)$/.exec(value?.trim() ?? '');
  return match ? { policy: match[1]!, quota: Number(match[2]), windowSeconds: Number(match[3]) } : undefined;
}

export class BudgetExhausted extends Error {
  constructor(budget: number) {
    super(`the budget of ${budget} requests is spent`);
  }
}

/** The default plan's share of the limits is spent: what is left goes to `--full`. */
export class PlanLimitReached extends Error {
  constructor() {
    super('the default plan is complete');
  }
}

interface Window {
  remaining: number;
  /** When a slot frees, in this process's clock (ms). */
  freesAt: number;
}

/** How long to wait after a 429 when it names no delay: the shortest window the contract allows. */
const DEFAULT_RETRY_MS = 1_000;
/** A margin over the announced delay, so the next request lands after the slot has freed. */
const MARGIN_MS = 100;

/**
 * Keeps a run inside the service's limits: it reads `RateLimit` after every answer and waits for a
 * slot when none is left, waits `Retry-After` after a 429 before sending the request again, and
 * counts every request against the budget.
 */
export class Pacer {
  sent = 0;
  waitedMs = 0;
  private readonly windows = new Map<string, Window>();

  /** Requests sent per lane. */
  readonly sentBy = new Map<string, number>();
  /** When set, the requests each lane may send before only essential ones go (the default plan). */
  allowance: Record<string, number> | undefined;

  constructor(private readonly options: {
    budget?: number | undefined;
    onWait?: (ms: number, why: string) => void;
  } = {}) {}

  get budget(): number | undefined {
    return this.options.budget;
  }

  exhausted(): boolean {
    return this.options.budget !== undefined && this.sent >= this.options.budget;
  }

  /**
   * Sends through `send`, waiting first when the caller's window is known to be full. `lane` groups
   * requests that count against the same limit (one credential's workspace, or the client address
   * for requests that fail authentication). `essential` requests (clean-up) ignore the budget.
   * Every 429 is handed to `onThrottled` (it is a documented answer, checked like any other) before
   * the request is sent again.
   */
  async send(
    lane: string,
    send: () => Promise<ObservedResponse>,
    options: { essential?: boolean; onThrottled?: (response: ObservedResponse) => void } = {},
  ): Promise<ObservedResponse> {
    for (let attempt = 0; ; attempt += 1) {
      if (!options.essential && this.exhausted()) throw new BudgetExhausted(this.options.budget!);
      const allowed = this.allowance?.[lane];
      if (!options.essential && attempt === 0 && allowed !== undefined && (this.sentBy.get(lane) ?? 0) >= allowed) throw new PlanLimitReached();
      await this.waitForSlot(lane);
      this.sent += 1;
      this.sentBy.set(lane, (this.sentBy.get(lane) ?? 0) + 1);
      const response = await send();
      this.observe(lane, response);
      if (response.status !== 429 || attempt >= 4) return response;
      options.onThrottled?.(response);
      const retryAfter = Number(response.headers.get('retry-after'));
      const delay = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 + MARGIN_MS : DEFAULT_RETRY_MS;
      await this.wait(delay, `429 on ${lane}: waiting Retry-After`);
    }
  }

  private observe(lane: string, response: ObservedResponse): void {
    const state = parseRateLimit(response.headers.get('ratelimit'));
    if (!state) return;
    this.windows.set(lane, { remaining: state.remaining, freesAt: Date.now() + state.resetSeconds * 1000 + MARGIN_MS });
  }

  private async waitForSlot(lane: string): Promise<void> {
    const window = this.windows.get(lane);
    if (!window || window.remaining > 0) return;
    const delay = window.freesAt - Date.now();
    this.windows.delete(lane);
    if (delay > 0) await this.wait(delay, `no request left in the ${lane} window`);
  }

  private async wait(ms: number, why: string): Promise<void> {
    this.options.onWait?.(ms, why);
    this.waitedMs += ms;
    await new Promise<void>((resolve) => setTimeout(resolve, ms));
  }
}
