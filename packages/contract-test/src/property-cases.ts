import fc from 'fast-check';
import type { Expectation } from './expectations.js';
import type { ObservedResponse, OutgoingRequest } from './http-exchange.js';
import type { Operation } from './openapi-contract.js';
import type { RunContext } from './run-context.js';

/**
 * Requests a shrinking may send after the first failure: each step is a request against the
 * service's rate limit, and a dozen steps already take most values down to their edges.
 */
const SHRINK_STEPS = 12;

/** What a property may add to its draws beyond the random ones. */
export interface PropertyOptions<T> {
  /** Values sent first, before the random draws (the edges of the schema); a failing one is shrunk too. */
  edges?: readonly T[];
  /** Words after the property's name in a draw's title (what was made invalid). */
  label?: (value: T) => string;
  /** Runs after each draw was answered (or not sent): removing what it created, say. */
  settle?: (request: OutgoingRequest, response: ObservedResponse | undefined) => Promise<void>;
}

/**
 * A property of one operation checked on `examples` values drawn by fast-check with the run's seed
 * (so `--seed` draws the same values in the same order), after the `edges` it is given: every
 * draw is sent and must meet the expectation. A failing draw is shrunk by fast-check to a smaller
 * one that still fails (at most `SHRINK_STEPS` more requests), and only that one is reported, with
 * the shrinking's length in its title; draws that pass are recorded as passing cases. `toRequest`
 * answers undefined when the draw cannot be sent (what it needs could not be made).
 */
export async function checkProperty<T>(
  ctx: RunContext,
  op: Operation,
  name: string,
  arbitrary: fc.Arbitrary<T>,
  toRequest: (value: T) => OutgoingRequest | Promise<OutgoingRequest | undefined>,
  expectation: (value: T) => Expectation,
  examples: number,
  options: PropertyOptions<T> = {},
): Promise<void> {
  const failures = new Map<string, { request: OutgoingRequest; title: string }>();
  const edges = options.edges ?? [];
  let steps = 0;
  const details = await fc.check(fc.asyncProperty(arbitrary, async (value) => {
    if (failures.size > 0 && steps >= SHRINK_STEPS) return true;
    if (failures.size > 0) steps += 1;
    const request = await toRequest(value);
    if (!request) return true;
    const label = options.label ? ` (${options.label(value)})` : '';
    const title = `${name}${label}: ${describe(request)}`;
    const outcome = await ctx.trial(op, title, request, expectation(value));
    await options.settle?.(request, outcome?.response);
    if (outcome === undefined || outcome.problems.length === 0) return true;
    failures.set(JSON.stringify(value), { request, title });
    return false;
  }), {
    seed: ctx.values.seedFor(`${op.operationId}:${name}`),
    // fast-check counts the given examples among its runs.
    numRuns: edges.length + examples,
    examples: edges.map((edge): [T] => [edge]),
    verbose: 0,
  });
  if (!details.failed || !details.counterexample) return;
  const smallest = failures.get(JSON.stringify(details.counterexample[0]));
  if (!smallest) return;
  const note = failures.size > 1 ? ` (shrunk in ${failures.size - 1} step${failures.size === 2 ? '' : 's'} from ${failures.size} failing draws)` : '';
  ctx.recordTrial(smallest.request, `${smallest.title}${note}`);
}

function describe(request: OutgoingRequest): string {
  const query = request.query.map(([k, v]) => `${k}=${JSON.stringify(v).slice(0, 40)}`).join(', ');
  const body = request.body === undefined ? '' : `body ${JSON.stringify(request.body).slice(0, 80)}`;
  return [query, body].filter((s) => s !== '').join('; ') || 'no parameters';
}
