import type { ObservedResponse } from './http-exchange.js';
import type { OpenApiContract, Operation, Schema } from './openapi-contract.js';
import { parseRateLimit, parseRateLimitPolicy } from './pacing.js';
import { quoted } from './terminal-text.js';

/**
 * Every way a response departs from what the contract documents for its operation: a status it
 * does not document, a content type it does not list, a body that fails its schema (each line of
 * an NDJSON download), and a documented header that is missing or invalid. A documented header is
 * a promise to clients, so its absence is a failure. Empty when the response conforms.
 */
export function contractProblems(contract: OpenApiContract, op: Operation, response: ObservedResponse): string[] {
  const documented = contract.response(op, response.status);
  if (!documented) {
    return [`status ${response.status} is not documented for ${op.operationId} (documented: ${op.responseKeys.join(', ')})`];
  }
  // A HEAD answer has the headers of a GET and, by HTTP, never a body.
  const body = op.method === 'HEAD' ? [] : bodyProblems(contract, documented.media, response);
  return [...headerProblems(contract, documented.headers, response), ...body];
}

function headerProblems(
  contract: OpenApiContract,
  headers: NonNullable<ReturnType<OpenApiContract['response']>>['headers'],
  response: ObservedResponse,
): string[] {
  const problems: string[] = [];
  for (const header of headers) {
    // OpenAPI: a Content-Type entry under headers is ignored; the media types say it.
    if (header.name.toLowerCase() === 'content-type') continue;
    const value = response.headers.get(header.name);
    if (value === null) {
      if (header.required) problems.push(`header ${header.name} is documented for ${response.status} but missing`);
      continue;
    }
    if (header.schema) {
      for (const p of contract.validate(header.pointer, headerValue(value, header.schema))) {
        problems.push(`header ${header.name}: ${JSON.stringify(value)} ${p.replace(/^\/ /, '')}`);
      }
    }
  }
  problems.push(...rateLimitFieldProblems(response));
  return problems;
}

/**
 * The RateLimit fields are structured fields (their descriptions cite the IETF draft), and this
 * checker paces itself by them: a value that does not parse is a failure, and on a 429 the
 * documented `Retry-After` equals the window's `t`.
 */
function rateLimitFieldProblems(response: ObservedResponse): string[] {
  const problems: string[] = [];
  const state = response.headers.get('ratelimit');
  const policy = response.headers.get('ratelimit-policy');
  if (state !== null && !parseRateLimit(state)) problems.push(`header RateLimit: ${JSON.stringify(state)} is not "<policy>";r=<n>;t=<n>`);
  if (policy !== null && !parseRateLimitPolicy(policy)) problems.push(`header RateLimit-Policy: ${JSON.stringify(policy)} is not "<policy>";q=<n>;w=<n>`);
  const retryAfter = response.headers.get('retry-after');
  const parsed = parseRateLimit(state);
  if (response.status === 429 && retryAfter !== null && parsed && Number(retryAfter) !== parsed.resetSeconds) {
    problems.push(`header Retry-After: ${quoted(retryAfter)} differs from t=${parsed.resetSeconds} of RateLimit`);
  }
  return problems;
}

function bodyProblems(
  contract: OpenApiContract,
  media: NonNullable<ReturnType<OpenApiContract['response']>>['media'],
  response: ObservedResponse,
): string[] {
  if (media.length === 0) return response.text === '' ? [] : [`a body was sent where ${response.status} documents none`];
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const match = media.find((m) => m.type.toLowerCase() === contentType)
    ?? media.find((m) => m.type.endsWith('/*') && contentType.startsWith(m.type.slice(0, -1)));
  if (!match) return [`content-type ${contentType === '' ? '(none)' : quoted(contentType)} is not documented for ${response.status} (documented: ${media.map((m) => m.type).join(', ')})`];
  if (match.schemaPointer === undefined) return [];
  if (/[/+]json$/.test(contentType)) {
    if (response.json === undefined) return ['body: not valid JSON'];
    return contract.validate(match.schemaPointer, response.json).map((p) => `body${p.startsWith('/') ? '' : ' '}${p}`);
  }
  if (contentType === 'application/x-ndjson') return ndjsonProblems(contract, match.schemaPointer, response.text);
  return contract.validate(match.schemaPointer, response.text).map((p) => `body ${p}`);
}

/**
 * Every line is checked against the schema of one line, the first few failures told: the media
 * type's `x-item-schema` (OpenAPI 3.2 calls it `itemSchema`; the schema then describes the whole
 * body as a string), else its schema (contracts up to 1.2.0 described one line there).
 */
function ndjsonProblems(contract: OpenApiContract, mediaSchemaPointer: string, text: string): string[] {
  const itemPointer = mediaSchemaPointer.replace(/\/schema$/, '/x-item-schema');
  const schemaPointer = contract.schemaAt(itemPointer) === undefined ? mediaSchemaPointer : itemPointer;
  const problems: string[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const [index, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`line ${index + 1}: not valid JSON`);
      continue;
    }
    for (const p of contract.validate(schemaPointer, value)) problems.push(`line ${index + 1}${p}`);
    if (problems.length >= 5) break;
  }
  return problems;
}

/** Header values are strings on the wire; a numeric schema describes the number they spell. */
function headerValue(value: string, schema: Schema): unknown {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return value;
}
