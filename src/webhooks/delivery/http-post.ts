import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { TextDecoder } from 'node:util';
import { guardedTarget, pinnedRequestOptions, type Resolver } from '../ssrf-guard.js';

/** The part of a response kept for the owner's inspection. */
const RESPONSE_BODY_LIMIT_BYTES = 2048;

export interface PostResult {
  /** null when no response arrived (refused, unreachable, timed out). */
  http_status: number | null;
  /** The first 2 KB of the response body; null when no response arrived. */
  response_body: string | null;
  response_time_ms: number;
  /** Why the attempt failed, in words; null on a 2xx. */
  error: string | null;
}

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Name resolver for the SSRF check (tests inject one to simulate DNS rebinding). */
  resolve?: Resolver | undefined;
  /** Aborts the attempt (shutdown). */
  signal?: AbortSignal | undefined;
}

// Pooled connections per pinned address: the address was checked before each request, and a pooled
// socket can only lead to an address that was checked when it was opened.
const agents = {
  'http:': new http.Agent({ keepAlive: true, keepAliveMsecs: 10_000, maxFreeSockets: 16, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, keepAliveMsecs: 10_000, maxFreeSockets: 16, scheduling: 'lifo' }),
};

class AttemptTimeout extends Error {}
class AttemptAbandoned extends Error {}

function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof AttemptTimeout) return `timed out after ${timeoutMs} ms`;
  if (err instanceof AttemptAbandoned) return 'abandoned before an answer (the dispatcher stopped)';
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ESSRF') {
    // The guard also reports names that do not resolve; that is an outage, not a refusal.
    if (/could not be resolved|did not resolve/.test(e.message)) return `name resolution failed: ${e.message}`;
    return `refused before connecting: ${e.message}`;
  }
  return `connection failed: ${e?.code ? `${e.code} ` : ''}${e?.message ?? String(err)}`.trim();
}

function statusError(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `answered ${status}: redirects are not followed`;
  return `answered ${status}`;
}

/**
 * One POST to a webhook URL over an SSRF-checked, pinned connection. Never throws: every failure is
 * described in the result. The deadline covers name resolution, connecting and the response; no
 * redirect is followed (a 3xx is a failure); at most 2 KB of the response body is read.
 */
export async function postWebhook(options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(new AttemptAbandoned());
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), options.timeoutMs);

  const abortable = <T>(promise: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (controller.signal.aborted) return reject(controller.signal.reason as Error);
      const onAbortInner = (): void => reject(controller.signal.reason as Error);
      controller.signal.addEventListener('abort', onAbortInner, { once: true });
      promise.then(
        (v) => {
          controller.signal.removeEventListener('abort', onAbortInner);
          resolve(v);
        },
        (e) => {
          controller.signal.removeEventListener('abort', onAbortInner);
          reject(e);
        },
      );
    });

  try {
    const target = await abortable(guardedTarget(options.url, { allowPrivate: options.allowPrivate, resolve: options.resolve }));
    const pinned = pinnedRequestOptions(target, { allowPrivate: options.allowPrivate });
    const protocol = target.url.protocol === 'https:' ? 'https:' : 'http:';
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = (protocol === 'https:' ? https : http).request(
        {
          ...pinned,
          method: 'POST',
          agent: agents[protocol],
          headers: { ...pinned.headers, ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
          signal: controller.signal,
        },
        (response) => {
          const decoder = new TextDecoder('utf-8');
          let kept = 0;
          let text = '';
          // A body cut at the limit drops a character split by the cut; a whole body is decoded to its end.
          const finish = (cut: boolean): void => resolve({ status: response.statusCode ?? 0, body: cut ? text : text + decoder.decode() });
          response.on('data', (chunk: Buffer) => {
            if (kept >= RESPONSE_BODY_LIMIT_BYTES) return;
            const part = chunk.subarray(0, RESPONSE_BODY_LIMIT_BYTES - kept);
            kept += part.length;
            // stream: true holds back a character split across chunks (or by the cut) instead of garbling it.
            text += decoder.decode(part, { stream: true });
            if (kept >= RESPONSE_BODY_LIMIT_BYTES) {
              // Enough kept: stop reading a large or endless body rather than wait for its end.
              finish(true);
              response.destroy();
            }
          });
          response.on('end', () => finish(false));
          response.on('error', reject);
          // The status is known: a body cut short by the peer still counts as an answer.
          response.on('close', () => finish(false));
        },
      );
      request.on('error', reject);
      request.end(options.body);
    });
    return { http_status: status, response_body: body, response_time_ms: elapsed(), error: statusError(status) };
  } catch (err) {
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : err;
    return { http_status: null, response_body: null, response_time_ms: elapsed(), error: describe(reason, options.timeoutMs) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
