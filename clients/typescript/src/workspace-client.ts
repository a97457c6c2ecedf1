import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../../generated/openapi.js';
import { ApiError } from './api-error.js';
import { policyFetch, type FetchPolicy } from './retrying-fetch.js';

/** Every GET of the read API, by path template. */
export type ReadPath = { [P in keyof paths]: P extends `/api/v1/${string}` ? (paths[P] extends { get: object } ? P : never) : never }[keyof paths];
type Get<P extends ReadPath> = paths[P]['get'];
type Ok<P extends ReadPath> = Get<P> extends { responses: { 200: { content: infer C } } } ? C : never;

/** The reads that answer JSON (`{code, messages, data}`), and the downloads that answer a file. */
export type JsonPath = { [P in ReadPath]: Ok<P> extends { 'application/json': unknown } ? P : never }[ReadPath];
export type DownloadPath = Exclude<ReadPath, JsonPath>;
/** `data` of a read's 200 envelope. */
export type DataOf<P extends JsonPath> = Ok<P> extends { 'application/json': { data: infer D } } ? D : never;
/** The lists and feeds: reads whose `data` holds `items` and `next_cursor`. */
export type ListPath = { [P in JsonPath]: DataOf<P> extends { items: unknown[]; next_cursor: unknown } ? P : never }[JsonPath];
export type ItemOf<P extends ListPath> = DataOf<P> extends { items: Array<infer I> } ? I : never;
/** The parameters of a read, as the contract declares them (`{query, path}`). */
export type ParamsOf<P extends ReadPath> = Get<P> extends { parameters: infer X } ? Pick<X, Extract<keyof X, 'query' | 'path'>> : never;
/** Parameters are optional where the read has no required one. */
type Args<P extends ReadPath> = object extends ParamsOf<P> ? [params?: ParamsOf<P>] : [params: ParamsOf<P>];

export interface WorkspaceClientOptions {
  /** A workspace API key (`wsk_live_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Where the service runs, e.g. `https://api.example.com` (no `/api/v1`). */
  baseUrl: string;
  /** Retries of a 429 or 503 after the wait its `Retry-After`/`RateLimit` name; default 3, 0 never retries. */
  maxRetries?: number;
  /** The longest wait accepted before a retry, in seconds; default 60 (the rate limit's window). */
  maxWaitSeconds?: number;
  /** Conditional reads: repeat GETs with `If-None-Match` and reuse the kept copy on 304. Default false. */
  conditionalReads?: boolean;
  /** Called before each wait; for logs. */
  onRetry?: FetchPolicy['onRetry'];
  /** Another fetch (a proxy agent, a test double of the network); default globalThis.fetch. */
  fetch?: typeof fetch;
}

/**
 * The official client of the read API, typed end to end from the contract's generated types:
 * `get` answers a read's `data`, `list` walks every page of a list or feed, `download` answers an
 * export as text; every error is an `ApiError`. openapi-fetch underneath (`raw`) for anything else.
 */
export class WorkspaceClient {
  /** The openapi-fetch client these methods use, with the key, the retries and the conditional reads. */
  readonly raw: Client<paths>;

  constructor(options: WorkspaceClientOptions) {
    if (!options.apiKey) throw new TypeError('WorkspaceClient needs an apiKey');
    if (!options.baseUrl) throw new TypeError('WorkspaceClient needs a baseUrl');
    const send = policyFetch({
      maxRetries: options.maxRetries ?? 3,
      maxWaitSeconds: options.maxWaitSeconds ?? 60,
      conditionalReads: options.conditionalReads ?? false,
      onRetry: options.onRetry,
    }, options.fetch);
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { Authorization: `Bearer ${options.apiKey}` },
      fetch: send,
    });
  }

  /** One read: its envelope's `data`, or an `ApiError`. */
  async get<P extends JsonPath>(path: P, ...[params]: Args<P>): Promise<DataOf<P>> {
    const { data, error, response } = await this.send(path, params, 'json');
    if (error !== undefined || data === undefined) throw ApiError.from(response, error);
    return (data as { data: DataOf<P> }).data;
  }

  /** Every item of a list or feed, page after page (`next_cursor`), as one `for await`. */
  async *list<P extends ListPath>(path: P, ...[params]: Args<P>): AsyncGenerator<ItemOf<P>, void, undefined> {
    const given = (params ?? {}) as { query?: Record<string, unknown>; path?: Record<string, unknown> };
    let cursor: string | undefined;
    for (;;) {
      const query = cursor === undefined ? given.query : { ...given.query, cursor };
      const page = await this.get(path, ...([{ ...given, query }] as unknown as Args<P>)) as { items: Array<ItemOf<P>>; next_cursor: string | null; has_more?: boolean };
      yield* page.items;
      // A list ends at a null cursor; a feed always gives one and says `has_more: false` at its end.
      if (page.next_cursor === null || page.has_more === false) return;
      cursor = page.next_cursor;
    }
  }

  /** An export, as the text of the file (CSV or NDJSON, by operation). */
  async download<P extends DownloadPath>(path: P, ...[params]: Args<P>): Promise<string> {
    const { data, error, response } = await this.send(path, params, 'text');
    if (error !== undefined) throw ApiError.from(response, typeof error === 'string' ? parseOrNull(error) : error);
    return data as string;
  }

  private async send(path: ReadPath, params: unknown, parseAs: 'json' | 'text'): Promise<{ data?: unknown; error?: unknown; response: Response }> {
    // The typed surface is above; openapi-fetch's own overloads cannot follow a generic path.
    const get = this.raw.GET as unknown as (p: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    return get(path, { params: params ?? {}, parseAs });
  }
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
