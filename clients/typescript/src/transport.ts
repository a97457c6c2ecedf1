// One call to the service: the request built, sent with a timeout per attempt, retried as the
// policy allows (waiting out Retry-After, else backing off with jitter), cancellable throughout by
// the caller's signal, answered with its parsed body and metadata or thrown as a typed error.
import { abortableWait, attemptSignal } from './abortable-wait.js';
import type { RequestOptions, ResponseMeta } from './contract-types.js';
import { asEnvelope, ConnectionError, errorFor, TimeoutError } from './errors.js';
import type { EtagCache } from './etag-cache.js';
import { readMeta } from './response-meta.js';

export interface RetryInfo {
  /** The status that is retried; null after a network error or a timeout. */
  status: number | null;
  /** 1 for the first retry. */
  attempt: number;
  waitSeconds: number;
  method: string;
  url: string;
}

export interface TransportSettings {
  baseUrl: string;
  authorization: string;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  timeout: number;
  maxRetries: number;
  maxWaitSeconds: number;
  cache: EtagCache | null;
  onRetry: ((info: RetryInfo) => void) | undefined;
}

export interface Call extends RequestOptions {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** A path template (`/api/v1/visibility/prompts/{prompt}`) and its parameters. */
  route: string;
  path?: Record<string, string | number> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  idempotencyKey?: string | undefined;
  ifNoneMatch?: string | undefined;
  parseAs: 'json' | 'text' | 'none';
}

export interface Answer {
  body: unknown;
  meta: ResponseMeta;
  /** The caller's own `ifNoneMatch` matched: 304, no body. */
  notModified: boolean;
}

/** Statuses that say nothing was done and the same request may succeed later. */
const RETRIED = new Set([408, 429, 502, 503, 504]);
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s … up to 8 s, each between half and all of it. */
const backoffMs = (retry: number): number => Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (retry - 1)) * (0.5 + Math.random() / 2);

export function urlOf(baseUrl: string, call: Pick<Call, 'route' | 'path' | 'query'>): string {
  const path = call.route.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = call.path?.[name];
    if (value === undefined) throw new TypeError(`${call.route} needs the path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined && v !== null) search.append(name, String(v));
  }
  const query = search.toString();
  return `${baseUrl}${path}${query ? `?${query}` : ''}`;
}

export async function send(settings: TransportSettings, call: Call): Promise<Answer> {
  const url = urlOf(settings.baseUrl, call);
  const { signal } = call;
  // A GET or HEAD changes nothing, and a POST under an Idempotency-Key is answered once whatever
  // the number of tries: those are retried on any failure. Another change is retried only on a 429,
  // which the service answers before acting.
  const retriesAnything = call.method === 'GET' || call.method === 'HEAD' || call.idempotencyKey !== undefined;
  const maxRetries = call.maxRetries ?? settings.maxRetries;
  const kept = settings.cache && call.method === 'GET' && call.ifNoneMatch === undefined ? settings.cache.get(url) : undefined;
  const headers: Record<string, string> = {
    accept: call.parseAs === 'text' ? '*/*' : 'application/json',
    ...call.headers,
    authorization: settings.authorization,
  };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
  const ifNoneMatch = call.ifNoneMatch ?? kept?.etag;
  if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;

  for (let retry = 0; ; retry++) {
    signal?.throwIfAborted();
    const timeout = call.timeout ?? settings.timeout;
    const attempt = attemptSignal(timeout, signal, () => new TimeoutError(`${call.method} ${url}: no answer within ${timeout} ms`));
    let response: Response;
    let text: string;
    try {
      response = await settings.fetch(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? null : JSON.stringify(call.body),
        signal: attempt.signal,
      });
      text = call.method === 'HEAD' ? '' : await response.text();
    } catch (failure) {
      if (signal?.aborted) throw signal.reason;
      const error = attempt.signal.reason instanceof TimeoutError
        ? attempt.signal.reason
        : new ConnectionError(`${call.method} ${url}: ${(failure as Error).message}`, { cause: failure });
      if (!retriesAnything || retry >= maxRetries) throw error;
      await pause(settings, call, url, retry + 1, null, backoffMs(retry + 1));
      continue;
    } finally {
      attempt.done();
    }

    const meta = readMeta(response);
    if (response.status === 304) {
      if (kept) return { body: parse(kept.text, 'json'), meta, notModified: false };
      return { body: undefined, meta, notModified: true };
    }
    if (response.ok) {
      if (settings.cache && call.method === 'GET' && response.status === 200 && meta.etag !== null && call.parseAs === 'json') {
        settings.cache.set(url, meta.etag, text);
      }
      return { body: parse(text, call.parseAs), meta, notModified: false };
    }
    const envelope = asEnvelope(parse(text, 'json', true));
    // 4091: the first request under this Idempotency-Key still runs; its answer comes after Retry-After.
    const retryable = retriesAnything ? RETRIED.has(response.status) || envelope?.code === 4091 : response.status === 429;
    if (retryable && retry < maxRetries) {
      const waitMs = meta.retryAfter === null ? backoffMs(retry + 1) : meta.retryAfter * 1000;
      if (waitMs <= settings.maxWaitSeconds * 1000) {
        await pause(settings, call, url, retry + 1, response.status, waitMs);
        continue;
      }
    }
    throw errorFor(meta, envelope);
  }
}

function pause(settings: TransportSettings, call: Call, url: string, attempt: number, status: number | null, waitMs: number): Promise<void> {
  settings.onRetry?.({ status, attempt, waitSeconds: waitMs / 1000, method: call.method, url });
  return abortableWait(waitMs, call.signal);
}

function parse(text: string, as: Call['parseAs'], lenient = false): unknown {
  if (as !== 'json') return as === 'text' ? text : undefined;
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (lenient) return null;
    throw new ConnectionError(`the answer is not JSON: ${text.slice(0, 80)}`, { cause: error });
  }
}
