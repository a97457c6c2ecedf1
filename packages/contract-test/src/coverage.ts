import { requiredScopes } from './credentials.js';
import type { OpenApiContract, Operation } from './openapi-contract.js';
import { EVERY_CALL, READ_METHODS } from './markers.js';
import type { RunContext } from './run-context.js';

/** One operation's documented statuses against those the run saw, with why each missing one was not produced. */
export interface OperationCoverage {
  operation_id: string;
  method: string;
  path: string;
  documented: string[];
  observed: number[];
  not_observed: Array<{ status: string; why: string }>;
}

export interface CoverageSettings {
  limitedKey: boolean;
  token: boolean;
  allowWrites: boolean;
}

/** Why a documented status did not show up: most cannot be provoked from outside, or not harmlessly. */
function whyNotObserved(contract: OpenApiContract, op: Operation, status: string, settings: CoverageSettings): string {
  if (status === '402') return 'needs a workspace without an active subscription, which only the operator sets';
  if (status === '429') return 'would spend the whole rate limit; seen only when the run is throttled';
  if (status === '503') return 'needs a dependency of the service to be away (the rate limit\'s store, or the database busy with an import)';
  if (status.startsWith('5')) return 'needs a fault inside the service; nothing a client sends provokes it';
  if (status === '409') return 'provoked only by removing the last owner, which the run never does';
  if (status === '403') {
    if (requiredScopes(contract, op).length === 0) return 'refused by role: needs the member token of a member who is not an owner';
    return settings.limitedKey ? 'the --limited-key holds the scope this operation needs' : 'needs --limited-key, a key lacking this operation\'s scope';
  }
  if (status === '401') return 'failed authentications are checked on one operation per tag (they are limited per address)';
  if (status === '404') return 'answered only in a state of the workspace the run does not create';
  if (/^2/.test(status) && !READ_METHODS.includes(op.method) && !settings.allowWrites) return 'a write: sent only with --allow-writes';
  return 'no case of the run produced it';
}

export function coverage(ctx: RunContext, operations: readonly Operation[], settings: CoverageSettings): OperationCoverage[] {
  return operations.map((op) => {
    const observed = [...(ctx.observed.get(op.operationId) ?? [])].sort((a, b) => a - b);
    const documented = [...op.responseKeys].sort();
    const seen = (key: string): boolean => observed.some((s) => String(s) === key || `${String(s)[0]}XX` === key) || (key === 'default' && observed.length > 0);
    // An operation the run could not reach at all: its own reason says why for every status.
    const unreached = (status: string) => ctx.notReached.find((n) => n.operationId === op.operationId && (n.what === EVERY_CALL || n.what.endsWith(`→ ${status}`)));
    return {
      operation_id: op.operationId,
      method: op.method,
      path: op.path,
      documented,
      observed,
      not_observed: documented.filter((k) => !seen(k))
        .map((status) => ({ status, why: unreached(status)?.reason ?? whyNotObserved(ctx.contract, op, status, settings) })),
    };
  });
}
