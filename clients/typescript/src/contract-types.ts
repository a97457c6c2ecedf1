// The contract's shapes as the client's methods take and answer them, derived from the generated
// types (src/generated/openapi.ts): a new path or operation is typed without an edit here.
import type { components, operations, paths } from './generated/openapi.js';
import type { adminOperations, NdjsonLines } from './generated/operations.js';

type Schemas = components['schemas'];
export type Scope = Schemas['Scope'];
export type FieldError = Schemas['FieldError'];
export type WebhookEvent = Schemas['WebhookEvent'];

/** Every path with a GET, by template (the read API and the administration API). */
export type GetPath = { [P in keyof paths]: paths[P] extends { get: object } ? P : never }[keyof paths];
type Get<P extends GetPath> = paths[P]['get'];
type Ok<P extends GetPath> = Get<P> extends { responses: { 200: { content: infer C } } } ? C : never;

/** The GETs that answer JSON (`{code, messages, data}`). */
export type JsonPath = { [P in GetPath]: Ok<P> extends { 'application/json': unknown } ? P : never }[GetPath];
/** The GETs that answer a file (the exports). */
export type DownloadPath = Exclude<GetPath, JsonPath>;
/** The exports in NDJSON: one JSON value a line, each of the schema the contract gives (`x-item-schema`). */
export type NdjsonPath = Extract<keyof NdjsonLines, DownloadPath>;
/** One line of an NDJSON export. */
export type LineOf<P extends NdjsonPath> = NdjsonLines[P];
/** `data` of a JSON GET's 200 envelope. */
export type DataOf<P extends JsonPath> = Ok<P> extends { 'application/json': { data: infer D } } ? D : never;
/** The lists and event feeds: GETs whose `data` holds `items` and `next_cursor`. */
export type ListPath = { [P in JsonPath]: DataOf<P> extends { items: unknown[]; next_cursor: unknown } ? P : never }[JsonPath];
export type ItemOf<P extends ListPath> = DataOf<P> extends { items: Array<infer I> } ? I : never;

/** What every call also takes: cancellation, its own timeout and retry limit, more headers. */
export interface RequestOptions {
  /** Cancels the call, its retries and the waits between them; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Milliseconds each attempt may take, answer read included (default: the client's `timeout`). */
  timeout?: number;
  /** Retries of this call (default: the client's `maxRetries`). */
  maxRetries?: number;
  /** More request headers. */
  headers?: Record<string, string>;
}

/** The path and query parameters of a GET, as the contract declares them. */
export type ParamsOf<P extends GetPath> = Get<P> extends { parameters: infer X } ? Pick<X, Extract<keyof X, 'query' | 'path'>> : never;
/** A GET's arguments: its parameters and the request options, optional when no parameter is required. */
export type GetArgs<P extends GetPath, Extra = object> = object extends ParamsOf<P>
  ? [params?: ParamsOf<P> & RequestOptions & Extra]
  : [params: ParamsOf<P> & RequestOptions & Extra];

/** An answer with what its headers said (`getWithMeta`, `pages`, `adminWithMeta`). */
export type ApiResponse<T> =
  | { notModified: false; data: T; meta: ResponseMeta }
  /** Only when the call sent its own `ifNoneMatch` and the resource had not changed. */
  | { notModified: true; data: undefined; meta: ResponseMeta };

/** What a response's headers say, kept beside its data. */
export interface ResponseMeta {
  status: number;
  /** `ETag`: send it back as `ifNoneMatch` to be answered "not modified" while nothing changed. */
  etag: string | null;
  /** `X-Request-Id`: quote it to support. */
  requestId: string | null;
  /** `RateLimit` and `RateLimit-Policy`: requests left in the window and seconds until one frees up. */
  rateLimit: { remaining: number; resetSeconds: number; limit: number | null; windowSeconds: number | null } | null;
  /** `Retry-After`, in seconds (on 429, 503 and 409 4091). */
  retryAfter: number | null;
  /** `Idempotent-Replayed: true`: the answer of an earlier request under the same `Idempotency-Key`. */
  replayed: boolean;
  headers: Headers;
}

/** The administration API's operations, by operationId. */
export type AdminOperationId = Extract<keyof operations, keyof typeof adminOperations>;
type Op<K extends AdminOperationId> = operations[K];
type BodyArg<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { body: B }
  : O extends { requestBody?: { content: { 'application/json': infer B } } } ? { body?: B } : { body?: undefined };
/** An administration operation's arguments: path, query, body, an optional `Idempotency-Key` (POST) and the request options. */
export type AdminArgs<K extends AdminOperationId> = Pick<Op<K>['parameters'], Extract<keyof Op<K>['parameters'], 'query' | 'path'>>
  & BodyArg<Op<K>> & RequestOptions & { idempotencyKey?: string };
type SuccessStatus = 200 | 201 | 202;
/** `data` of an administration operation's success envelope. */
export type AdminDataOf<K extends AdminOperationId> = {
  [S in Extract<keyof Op<K>['responses'], SuccessStatus>]: Op<K>['responses'][S] extends { content: { 'application/json': { data: infer D } } } ? D : never
}[Extract<keyof Op<K>['responses'], SuccessStatus>];
