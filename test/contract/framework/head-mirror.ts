import { expect } from 'vitest';
import type { Harness } from './harness.js';
import type { ContractOperation, ObservedResponse } from './spec.js';

// Headers that differ between any two requests, or that only a response with a body has.
// Retry-After counts down the rate-limit window's seconds: compared below, within a second.
const PER_REQUEST = new Set(['date', 'x-request-id', 'ratelimit', 'retry-after', 'transfer-encoding', 'connection', 'keep-alive']);
// Answers that the request itself changes, so two requests in a row need not share a body, its
// length or its tag: the usage counts every request; `/me` shows the key's last use, which the
// key's first request records; the usage per day shows the rate limit the request spent.
const CHANGED_BY_THE_REQUEST = new Set(['getWorkspaceUsage', 'getMe', 'getDailyUsage']);
const BODY_DERIVED = ['etag', 'content-length'];

function comparable(op: ContractOperation, res: ObservedResponse): Record<string, string> {
  const skip = CHANGED_BY_THE_REQUEST.has(op.operationId) ? new Set([...PER_REQUEST, ...BODY_DERIVED]) : PER_REQUEST;
  return Object.fromEntries([...res.headers].filter(([name]) => !skip.has(name)));
}

/** HEAD answers what the GET answers, headers included, without the body. */
function expectHeadMirrorsGet(getOp: ContractOperation, get: ObservedResponse, head: ObservedResponse): void {
  expect(head.status, `HEAD ${getOp.path} → ${head.status}, GET → ${get.status}`).toBe(get.status);
  expect(head.text).toBe('');
  expect(comparable(getOp, head)).toEqual(comparable(getOp, get));
  expect(head.headers.has('ratelimit')).toBe(get.headers.has('ratelimit'));
  const [getWait, headWait] = [get, head].map((res) => res.headers.get('retry-after'));
  expect(headWait === null, `Retry-After: HEAD ${headWait}, GET ${getWait}`).toBe(getWait === null);
  if (getWait !== null) expect(Math.abs(Number(headWait) - Number(getWait))).toBeLessThanOrEqual(1);
}

/**
 * The harness, with every GET sent again as HEAD right after it (same request, same context) and
 * the two answers compared; the HEAD answer is checked against the GET's documented status and
 * headers (the contract lists no HEAD operation: every GET answers HEAD, as its
 * `x-head-for-every-get` says). So every case of a GET is also a case of its HEAD.
 */
export function mirroredAsHead(h: Harness): Harness {
  return {
    ...h,
    call: async (op, spec, ctx, via) => {
      const get = await h.call(op, spec, ctx, via);
      if ((spec.method ?? 'GET') === 'GET') {
        const head = await h.call(op, { ...spec, method: 'HEAD' }, ctx, via);
        expectHeadMirrorsGet(op, get, head);
      }
      return get;
    },
  };
}
