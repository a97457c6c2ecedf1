/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-member-access --
   the mock walks the bundled OpenAPI document as untyped JSON, whatever shape an operation has. */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { ReadHandlers, StreamResult } from '../operations/handler-types.js';
import { followRefs } from '@workspace-read-api/contract/json-pointer.js';

type Json = Record<string, any>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows local `#/...` references, as the bundled document uses them for shared responses and examples. */
function deref(doc: Json, value: unknown): any {
  return followRefs(doc, value).node;
}

/** The read API: every operation under /api/v1, in document order; HEAD, which the contract lists for none, is answered by the GET's handler. */
export function readOperations(doc: Json): Json[] {
  return Object.entries(doc.paths as Json)
    .filter(([path]) => path.startsWith('/api/v1/'))
    .flatMap(([, item]) => Object.entries(item as Json)
      .filter(([method, op]) => method !== 'head' && isObject(op) && typeof op.operationId === 'string')
      .map(([, op]) => op as Json));
}

/** What a request asks of the mock through `Prefer` (as Prism reads it): a status and/or a named example. */
interface Preference {
  code?: string;
  example?: string;
}

const preferences = new AsyncLocalStorage<Preference>();

/**
 * Reads `Prefer: code=404` / `Prefer: example=<name>` so a client can see any documented answer of
 * an operation, not only its success. Handlers never see headers, so the choice travels in the
 * request's async context.
 */
export function readPreferHeader(req: Request, _res: Response, next: NextFunction): void {
  const header = req.headers.prefer;
  const preference: Preference = {};
  for (const part of (typeof header === 'string' ? header : '').split(/[,;]/)) {
    const [name, value] = part.split('=').map((s) => s.trim());
    if ((name === 'code' || name === 'example') && value) preference[name] = value.replace(/^"|"$/g, '');
  }
  preferences.run(preference, next);
}

interface DocumentedAnswer {
  status: number;
  mediaType: string;
  example: unknown;
  headers: Json;
}

/** The documented answer to serve: the preferred status if documented, else the first success. */
function chooseAnswer(doc: Json, operation: Json, query: Json, preference: Preference): DocumentedAnswer | undefined {
  const responses = operation.responses ?? {};
  const statuses = Object.keys(responses);
  const status = preference.code && statuses.includes(preference.code)
    ? preference.code
    : statuses.filter((s) => /^2\d\d$/.test(s)).sort()[0];
  if (!status) return undefined;
  const response = deref(doc, responses[status]) as Json;
  const content = (response.content ?? {}) as Json;
  const mediaTypes = Object.keys(content);
  // A `format` query parameter picks the representation where a response offers several media types.
  const format = typeof query.format === 'string' ? query.format : undefined;
  const mediaType = (format && mediaTypes.find((m) => m.includes(format))) || mediaTypes[0];
  if (!mediaType) return undefined;
  const media = content[mediaType] as Json;
  const examples = (media.examples ?? {}) as Json;
  // The name comes from the request: only the media type's own examples count, never `constructor`.
  const named = preference.example && Object.hasOwn(examples, preference.example) ? deref(doc, examples[preference.example]) : undefined;
  const first = deref(doc, Object.values(examples)[0]);
  const example = named?.value ?? media.example ?? first?.value;
  return { status: Number(status), mediaType, example, headers: response.headers ?? {} };
}

/** `attachment; filename="answers-2026-11-22.csv"` → `answers-2026-11-22.csv`, from the header's example. */
function attachmentName(doc: Json, headers: Json, fallback: string): string {
  const disposition = deref(doc, headers['Content-Disposition']);
  const match = /filename="([^"]+)"/.exec(String(disposition?.example ?? disposition?.schema?.example ?? ''));
  return match?.[1] ?? fallback;
}

/**
 * A handler for every read operation of the contract that answers the operation's documented
 * example: JSON as the envelope, other media (CSV, NDJSON exports) as a download.
 */
export function exampleHandlers(doc: Json): ReadHandlers {
  const handlers: Record<string, (ctx: { query: Json }) => unknown> = {};
  for (const operation of readOperations(doc)) {
    const operationId = operation.operationId as string;
    handlers[operationId] = ({ query }) => {
      const answer = chooseAnswer(doc, operation, query, preferences.getStore() ?? {});
      if (!answer) return { status: 204, body: undefined };
      if (answer.mediaType === 'application/json') return { status: answer.status, body: answer.example };
      // A file's example is its text (an NDJSON file's, its lines); a contract that gave one NDJSON line's object (up to 1.2.0) gets that line.
      const text = typeof answer.example === 'string' ? answer.example : answer.example === undefined ? '' : `${JSON.stringify(answer.example)}\n`;
      const stream: StreamResult['stream'] = {
        contentType: answer.mediaType,
        filename: attachmentName(doc, answer.headers, `${operationId}.${answer.mediaType.split(/[/+-]/).pop()}`),
        lines: () => [text],
      };
      return { status: 200, stream };
    };
  }
  return handlers as unknown as ReadHandlers;
}

/** Read operations whose success response has no example to serve, as `operationId status media-type`. */
export function operationsWithoutExamples(doc: Json): string[] {
  return readOperations(doc).flatMap((op) => Object.entries(op.responses ?? {})
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([status, response]) => Object.entries((deref(doc, response).content ?? {}) as Json)
      .filter(([, media]) => media.example === undefined && Object.keys(media.examples ?? {}).length === 0)
      .map(([type]) => `${op.operationId} ${status} ${type}`)));
}
