import type { ResponseMeta } from './contract-types.js';

const param = (header: string | null, name: string): number | null => {
  const found = new RegExp(`(?:^|;)\\s*${name}=(\\d+)`).exec(header ?? '');
  return found ? Number(found[1]) : null;
};

/**
 * Seconds to wait before sending again: `Retry-After` (seconds or an HTTP date), else on a 429 the
 * `t=` of `RateLimit` (seconds until a request frees up); null when the answer names none.
 */
export function retryAfterSeconds(headers: Headers, status: number, now = Date.now()): number | null {
  const value = headers.get('retry-after')?.trim();
  if (value) {
    if (/^\d+$/.test(value)) return Number(value);
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000));
  }
  return status === 429 ? param(headers.get('ratelimit'), 't') : null;
}

/** What a response's headers say (status, ETag, RateLimit, request id, Retry-After, a replay). */
export function readMeta(response: Response): ResponseMeta {
  const { headers, status } = response;
  const remaining = param(headers.get('ratelimit'), 'r');
  const policy = headers.get('ratelimit-policy');
  return {
    status,
    etag: headers.get('etag'),
    requestId: headers.get('x-request-id'),
    rateLimit: remaining === null ? null : {
      remaining,
      resetSeconds: param(headers.get('ratelimit'), 't') ?? 0,
      limit: param(policy, 'q'),
      windowSeconds: param(policy, 'w'),
    },
    retryAfter: retryAfterSeconds(headers, status),
    replayed: headers.get('idempotent-replayed') === 'true',
    headers,
  };
}
