import type {
  AdminArgs, AdminDataOf, AdminOperationId, ApiResponse, DataOf, DownloadPath, GetArgs, GetPath, ItemOf, JsonPath, LineOf, ListPath, NdjsonPath, RequestOptions,
  ResponseMeta,
} from './contract-types.js';
import { EtagCache } from './etag-cache.js';
import { adminOperations } from './generated/operations.js';
import { newIdempotencyKey } from './idempotency-key.js';
import { send, type Answer, type Call, type RetryInfo, type TransportSettings } from './transport.js';

export interface WorkspaceClientOptions {
  /** A workspace API key (`wsk_live_…`) for the read API, or a member token (`wsm_live_…`) for the administration API; sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Where the service runs, e.g. `https://api.example.com` (no `/api/v1`). */
  baseUrl: string;
  /** Milliseconds each attempt may take, answer read included; default 30 000. */
  timeout?: number;
  /** Retries of a call (network error, timeout, 408, 429, 502, 503, 504); default 3, 0 never retries. */
  maxRetries?: number;
  /** The longest `Retry-After` the client waits out, in seconds; a longer one is the caller's error. Default 60. */
  maxWaitSeconds?: number;
  /** Conditional reads: a repeated GET sends `If-None-Match` and a 304 is answered from the kept copy; `maxEntries` (default 100) bounds the copies kept. Default off. */
  conditionalReads?: boolean | { maxEntries?: number };
  /** Called before each wait for a retry; for logs. */
  onRetry?: (info: RetryInfo) => void;
  /** Another fetch (a proxy agent, an instrumented one); default `globalThis.fetch`. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

type AnyParams = RequestOptions & { path?: object; query?: object; body?: unknown; idempotencyKey?: string; ifNoneMatch?: string };
type Page = { items: unknown[]; next_cursor: string | null; has_more?: boolean };

/** A method per administration operation, generated from the contract (`adminOperations`). */
export type AdminMethods = { [K in AdminOperationId]: (params: AdminArgs<K>) => Promise<AdminDataOf<K>> };
/** The same methods, answering the data with the response's metadata (`replayed`, `requestId`, …). */
export type AdminMethodsWithMeta = { [K in AdminOperationId]: (params: AdminArgs<K>) => Promise<ApiResponse<AdminDataOf<K>>> };

/**
 * The official client of the Workspace Read API, typed end to end from the contract: `get` answers
 * a read's `data`, `list` walks every page of a list or feed, `download` answers an export,
 * `head` a GET's headers, `admin.<operationId>` calls the administration API. Every call takes a
 * `signal` and a `timeout`; every refusal is an `ApiError` subclass.
 */
export class WorkspaceClient {
  /** The administration API, one method per operation (`admin.createWebhook({ path, body })`). */
  readonly admin: AdminMethods;
  /** The administration API, each answer with its metadata. */
  readonly adminWithMeta: AdminMethodsWithMeta;
  private readonly settings: TransportSettings;

  constructor(options: WorkspaceClientOptions) {
    if (!options.apiKey) throw new TypeError('WorkspaceClient needs an apiKey');
    if (!options.baseUrl) throw new TypeError('WorkspaceClient needs a baseUrl');
    const conditional = options.conditionalReads;
    this.settings = {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      authorization: `Bearer ${options.apiKey}`,
      fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
      timeout: options.timeout ?? 30_000,
      maxRetries: options.maxRetries ?? 3,
      maxWaitSeconds: options.maxWaitSeconds ?? 60,
      cache: conditional ? new EtagCache((conditional === true ? undefined : conditional.maxEntries) ?? 100) : null,
      onRetry: options.onRetry,
    };
    const admin: Record<string, unknown> = {};
    const adminWithMeta: Record<string, unknown> = {};
    for (const [id, [method, route]] of Object.entries(adminOperations)) {
      const call = (params: AnyParams): Promise<Answer> => this.call(method, route, params, 'json');
      admin[id] = async (params: AnyParams) => dataOf(await call(params));
      adminWithMeta[id] = async (params: AnyParams) => withMeta(await call(params));
    }
    this.admin = admin as AdminMethods;
    this.adminWithMeta = adminWithMeta as AdminMethodsWithMeta;
  }

  /** One JSON read: its envelope's `data`. */
  async get<P extends JsonPath>(path: P, ...[params]: GetArgs<P>): Promise<DataOf<P>> {
    return dataOf(await this.call('GET', path, params, 'json')) as DataOf<P>;
  }

  /**
   * One JSON read with its metadata (status, ETag, RateLimit, request id). With `ifNoneMatch` (an
   * ETag from an earlier answer) an unchanged resource answers `{ notModified: true }` and no data.
   */
  async getWithMeta<P extends JsonPath>(path: P, ...[params]: GetArgs<P, { ifNoneMatch?: string }>): Promise<ApiResponse<DataOf<P>>> {
    return withMeta(await this.call('GET', path, params, 'json')) as ApiResponse<DataOf<P>>;
  }

  /** Every item of a list or event feed, page after page, as one `for await`. */
  async *list<P extends ListPath>(path: P, ...args: GetArgs<P>): AsyncGenerator<ItemOf<P>, void, undefined> {
    for await (const page of this.pages(path, ...args)) yield* (page.data as Page).items as Array<ItemOf<P>>;
  }

  /** The pages of a list or event feed, one answer (data and metadata) at a time, following `next_cursor`. */
  async *pages<P extends ListPath>(path: P, ...[params]: GetArgs<P>): AsyncGenerator<{ data: DataOf<P>; meta: ResponseMeta }, void, undefined> {
    const given = (params ?? {}) as AnyParams & { query?: Record<string, unknown> };
    let cursor = given.query?.cursor as string | undefined;
    for (;;) {
      const answer = await this.call('GET', path, { ...given, query: { ...given.query, cursor } }, 'json');
      const data = dataOf(answer) as Page;
      yield { data: data as DataOf<P>, meta: answer.meta };
      // A list ends at a null cursor; a feed always gives one and says `has_more: false` at its end.
      if (data.next_cursor === null || data.has_more === false) return;
      cursor = data.next_cursor;
    }
  }

  /** An export, as the text of the file (CSV or NDJSON, by path). */
  async download<P extends DownloadPath>(path: P, ...[params]: GetArgs<P>): Promise<string> {
    return (await this.call('GET', path, params, 'text')).body as string;
  }

  /** An NDJSON export, each line parsed and typed by the contract's schema for it. */
  async downloadLines<P extends NdjsonPath>(path: P, ...args: GetArgs<P>): Promise<Array<LineOf<P>>> {
    const text = await this.download(path, ...args);
    return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as LineOf<P>);
  }

  /** The headers a GET would answer, without its body (HEAD works wherever GET does). */
  async head<P extends GetPath>(path: P, ...[params]: GetArgs<P>): Promise<ResponseMeta> {
    return (await this.call('HEAD', path, params, 'none')).meta;
  }

  private call(method: Call['method'], route: string, params: AnyParams | undefined, parseAs: Call['parseAs']): Promise<Answer> {
    const { path, query, body, idempotencyKey, ...options } = params ?? {};
    return send(this.settings, {
      ...options,
      method,
      route,
      path: path as Call['path'],
      query: query as Call['query'],
      body,
      // Every administration POST carries one, the same on each retry, so a retry never acts twice.
      idempotencyKey: method === 'POST' ? idempotencyKey ?? newIdempotencyKey() : undefined,
      parseAs,
    });
  }
}

const dataOf = (answer: Answer): unknown => (answer.body as { data: unknown }).data;
const withMeta = (answer: Answer): ApiResponse<unknown> => answer.notModified
  ? { notModified: true, data: undefined, meta: answer.meta }
  : { notModified: false, data: dataOf(answer), meta: answer.meta };
