/** What the client does between the caller and the network. */
export interface FetchPolicy {
  /** How many times a 429 or 503 is sent again after the wait the answer names (0: never). */
  maxRetries: number;
  /** The longest wait, in seconds, the client accepts before a retry; a longer one is returned as the error. */
  maxWaitSeconds: number;
  /** Send `If-None-Match` with the `ETag` of the last 200 of the same GET, and answer a 304 from that copy. */
  conditionalReads: boolean;
  /** Called before each wait (for logs and tests). */
  onRetry?: ((info: { status: number; attempt: number; waitSeconds: number; url: string }) => void) | undefined;
}

/**
 * The seconds a 429 or 503 says to wait: `Retry-After` (seconds or an HTTP date), else the
 * `t=` of `RateLimit` (seconds until a request frees up); null when it names none.
 */
export function waitSeconds(headers: Headers, now = Date.now()): number | null {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    if (/^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim());
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000));
  }
  const t = /(?:^|;)\s*t=(\d+)/.exec(headers.get('ratelimit') ?? '');
  return t ? Number(t[1]) : null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A fetch for openapi-fetch: retries a 429 or 503 after the wait its headers name, up to the
 * caller's limit, and (when asked) turns a repeated GET into a conditional one, answering a 304
 * with the copy kept from the 200, so callers see the same answer either way.
 */
export function policyFetch(policy: FetchPolicy, base: typeof fetch = globalThis.fetch): (request: Request) => Promise<Response> {
  const copies = new Map<string, { etag: string; body: ArrayBuffer; status: number; headers: Headers }>();
  return async (request) => {
    const key = `${request.headers.get('authorization') ?? request.headers.get('x-api-key') ?? ''} ${request.url}`;
    const kept = policy.conditionalReads && request.method === 'GET' ? copies.get(key) : undefined;
    for (let attempt = 1; ; attempt++) {
      const sent = request.clone();
      if (kept && !sent.headers.has('if-none-match')) sent.headers.set('if-none-match', kept.etag);
      const response = await base(sent);
      if (response.status === 304 && kept) {
        // The server's fresh headers (RateLimit, X-Request-Id) over the kept copy's.
        const headers = new Headers(kept.headers);
        response.headers.forEach((value, name) => headers.set(name, value));
        return new Response(kept.body.slice(0), { status: kept.status, headers });
      }
      if (response.status === 429 || response.status === 503) {
        const wait = waitSeconds(response.headers);
        if (attempt <= policy.maxRetries && wait !== null && wait <= policy.maxWaitSeconds) {
          policy.onRetry?.({ status: response.status, attempt, waitSeconds: wait, url: request.url });
          await response.body?.cancel();
          await sleep(Math.max(wait * 1000, 100));
          continue;
        }
      }
      const etag = response.headers.get('etag');
      if (policy.conditionalReads && request.method === 'GET' && response.status === 200 && etag !== null) {
        const body = await response.clone().arrayBuffer();
        copies.set(key, { etag, body, status: response.status, headers: new Headers(response.headers) });
      }
      return response;
    }
  };
}
