/** One HTTP request, with every id already substituted into the path. */
export interface RequestSpec {
  /** Default `GET`. */
  method?: string;
  /** The concrete path, e.g. `/api/v1/visibility/prompts/3f2b…`. */
  path: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * The API key sent as `Authorization: Bearer`; defaults to the caller's default key.
   * `null` sends no key (admin-API requests put their own credentials in `headers`).
   */
  key?: string | null;
}

export interface ObservedResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: unknown;
  text: string;
}

/** Sends a request over real HTTP; `defaultKey` applies when the spec names none. */
export async function send(baseUrl: string, spec: RequestSpec, defaultKey: string | null = null): Promise<ObservedResponse> {
  const url = new URL(spec.path, baseUrl);
  for (const [name, value] of Object.entries(spec.query ?? {})) url.searchParams.append(name, String(value));
  const headers: Record<string, string> = {};
  const key = spec.key === undefined ? defaultKey : spec.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (spec.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(spec.body);
  }
  Object.assign(headers, spec.headers);
  const response = await fetch(url, { method: spec.method ?? 'GET', headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** The body of the 404 (4040) a request gets when no operation of the contract matches it. */
export const noRoute = (method: string, path: string) => ({ code: 4040, messages: `No route ${method} ${path}.`, data: null });

/** `"workspace";r=117;t=42` → `{ r: 117, t: 42 }` (and the policy name). */
export function parseRateLimit(value: string | null): { policy: string; r: number; t: number } {
  const match = /^"([^"]+)";r=(\d+);t=(\d+)$/.exec(value ?? '');
  if (!match) throw new Error(`RateLimit header ${JSON.stringify(value)} is not "<policy>";r=<n>;t=<n>`);
  return { policy: match[1]!, r: Number(match[2]), t: Number(match[3]) };
}

export interface RawResponse {
  status: number;
  headers: import('node:http').IncomingHttpHeaders;
  /** The bytes on the wire: not decompressed. */
  body: Buffer;
}

/**
 * One request over node:http, for what fetch hides or forbids: the body exactly as sent
 * (compressed or not), and request headers such as `Origin` and `Host`.
 */
export async function sendRaw(baseUrl: string, spec: { method?: string; path: string; headers?: Record<string, string> }): Promise<RawResponse> {
  const { request } = await import('node:http');
  const url = new URL(spec.path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: spec.method ?? 'GET', headers: spec.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
