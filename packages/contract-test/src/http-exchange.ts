import { BodyTooLong, readBoundedText } from './read-bounds.js';

/** Who a request speaks as; `label` names it in reports. */
export interface Credential {
  label: string;
  value: string;
  /** The header it travels in and how: `Authorization: Bearer <value>` or `<header>: <value>`. */
  header: string;
  bearer: boolean;
  /** A working secret: never printed (reports show `envVar`, or the value masked). */
  secret: boolean;
  /** The environment variable a report names instead of the value (`$WORKSPACE_API_KEY`). */
  envVar?: string;
  /** Made to be refused (unissued, malformed, revoked): it counts against the per-address limit. */
  failsAuthentication?: boolean;
}

/** One request as the checker plans it: every id already in the path. */
export interface OutgoingRequest {
  method: string;
  path: string;
  query: Array<[string, string]>;
  credential?: Credential | undefined;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
}

export interface ObservedResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON; undefined otherwise. */
  json: unknown;
  durationMs: number;
}

/**
 * Percent-encodes everything but RFC 3986's unreserved characters. Form encoding (`+` for a space,
 * `*` and `(` left bare) would send reserved characters a server may rightly refuse unencoded.
 */
function encodeQueryPart(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The base URL joined with the request's path and query (a base with a path prefix keeps it). */
export function requestUrl(baseUrl: string, request: OutgoingRequest): string {
  const base = new URL(baseUrl);
  const url = new URL(base.pathname.replace(/\/$/, '') + request.path, base);
  url.search = request.query.map(([name, value]) => `${encodeQueryPart(name)}=${encodeQueryPart(value)}`).join('&');
  return url.toString();
}

export function requestHeaders(request: OutgoingRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json, */*;q=0.5' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (request.credential) {
    headers[request.credential.header.toLowerCase()] = request.credential.bearer ? `Bearer ${request.credential.value}` : request.credential.value;
  }
  return { ...headers, ...request.headers };
}

/** What bounds one exchange: the whole of it in time, and the answer's body in bytes. */
export interface ExchangeBounds {
  timeoutMs: number;
  maxBodyBytes: number;
}

/**
 * Sends one request over HTTP; redirects are answers, not followed. Throws when no complete answer
 * arrives within `timeoutMs` (the body included), and `BodyTooLong` when its body passes
 * `maxBodyBytes`.
 */
export async function sendRequest(baseUrl: string, request: OutgoingRequest, bounds: ExchangeBounds): Promise<ObservedResponse> {
  const started = performance.now();
  const response = await fetch(requestUrl(baseUrl, request), {
    method: request.method,
    headers: requestHeaders(request),
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    redirect: 'manual',
    signal: AbortSignal.timeout(bounds.timeoutMs),
  });
  let text: string;
  try {
    text = await readBoundedText(response, bounds.maxBodyBytes);
  } catch (err) {
    if (err instanceof BodyTooLong) err.status = response.status;
    throw err;
  }
  let json: unknown;
  if (/^application\/(?:[\w.+-]+\+)?json\b/i.test(response.headers.get('content-type') ?? '')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: response.status, headers: response.headers, text, json, durationMs: performance.now() - started };
}
