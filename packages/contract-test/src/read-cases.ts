import fc from 'fast-check';
import { all, reached, reaches, type Expectation } from './expectations.js';
import type { Credential, OutgoingRequest } from './http-exchange.js';
import { checkProperty } from './property-cases.js';
import type { Operation, Parameter } from './openapi-contract.js';
import { enumeratedValues, validArbitrary } from './parameter-values.js';
import { EVERY_CALL } from './report.js';
import type { RunContext } from './run-context.js';
import { quoted } from './terminal-text.js';

/** Page size while walking, so even short lists have a second page. */
const WALK_LIMIT = 2;

/**
 * How far discovery goes: pages walked per list and item reads per operation (the first ids its
 * list answered). `--full` follows cursors twice and reads two items; the default plan follows a
 * cursor once and reads one, the rest being repeats that give way to checks every operation needs.
 */
export const DISCOVERY = { full: { pages: 3, idsPerOperation: 2 }, plan: { pages: 2, idsPerOperation: 1 } } as const;
type Discovery = typeof DISCOVERY[keyof typeof DISCOVERY];

/** A read operation ready to call: the credential it takes and real values for its path. */
export interface ReadyRead {
  op: Operation;
  credential: Credential;
  pathValues: Array<Record<string, string>>;
  /** A `next_cursor` the walk saw (the refusal cases tamper with it). */
  cursor?: string | undefined;
}

export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? `{${name}}`));
}

export function pathParameters(op: Operation): Parameter[] {
  return op.parameters.filter((p) => p.in === 'path');
}

export function queryParameters(op: Operation): Parameter[] {
  return op.parameters.filter((p) => p.in === 'query');
}

/** The contract's `example`s of a parameter (its own, then its schema's), as sent in a path. */
function parameterExamples(ctx: RunContext, param: Parameter): string[] {
  const schema = ctx.contract.schema(param.schema) ?? {};
  return [param.example, ...Object.values(param.examples ?? {}).map((e) => e.value), schema.example, ...(schema.examples ?? [])]
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String);
}

/**
 * The values a path parameter takes, in this order: every value of its enumeration, the contract's
 * `example`s, then ids real answers named. An identifier's example (a UUID) names an object of the
 * documentation, not of the deployment: it is tried only when no answer named a real id.
 */
function pathParameterValues(ctx: RunContext, op: Operation, param: Parameter, withIdExamples = true, byName = true): string[] {
  const schema = ctx.contract.schema(param.schema) ?? {};
  const examples = parameterExamples(ctx, param);
  const ids = !byName ? [] : namesListItem(ctx, op, param.name) ? linkedValues(ctx, op, param.name) : ctx.ids.forPathParameter(op, param.name);
  const ordered = schema.format === 'uuid' ? (ids.length > 0 || !withIdExamples ? ids : examples) : [...examples, ...ids];
  return [...new Set([...(enumeratedValues(schema) ?? []), ...ordered])];
}

/**
 * Whether a path parameter names an item of a list the contract documents (`{idea}` of
 * `…/ideas/{idea}`, with `GET …/ideas`): its values then come from the contract's links alone, never
 * from ids the run pairs with the list by the shape of the path.
 */
function namesListItem(ctx: RunContext, op: Operation, name: string): boolean {
  const list = op.path.slice(0, op.path.indexOf(`/{${name}}`));
  return ctx.contract.operations.some((o) => o.method === 'GET' && o.path === list);
}

/** The values the contract's links gave a parameter at this place of a path, for any operation below it (`{webhook_id}` of `getWebhook` for `listWebhookDeliveries`). */
function linkedValues(ctx: RunContext, op: Operation, name: string): string[] {
  const prefix = op.path.slice(0, op.path.indexOf(`/{${name}}`) + name.length + 3);
  const values = ctx.contract.operations.filter((o) => o.path.startsWith(prefix))
    .flatMap((o) => ctx.links.valuesFor(o.operationId).map((v) => v[name]))
    .filter((v): v is string => v !== undefined);
  return [...new Set(values)];
}

/** Whether a set of path values names an object only through the contract's example of an identifier. */
function exampleIds(ctx: RunContext, op: Operation, values: Record<string, string>): string[] {
  return pathParameters(op).filter((p) => ctx.contract.schema(p.schema)?.format === 'uuid'
    && parameterExamples(ctx, p).includes(values[p.name]!) && !ctx.ids.forPathParameter(op, p.name).includes(values[p.name]!)).map((p) => p.name);
}

/**
 * Combinations of values for the path, at most `limit` of them, but every value of an enumerated
 * parameter at least once; empty when a parameter has no value yet.
 */
function pathValueSets(ctx: RunContext, op: Operation, limit: number, withIdExamples: boolean): Array<Record<string, string>> {
  const linked = linkedValueSets(ctx, op, limit);
  if (linked !== undefined && (linked.length > 0 || !withIdExamples)) return linked;
  let sets: Array<Record<string, string>> = [{}];
  for (const param of pathParameters(op)) {
    // A link target no answer resolved: only the contract's own examples, never ids guessed by name.
    const values = pathParameterValues(ctx, op, param, withIdExamples, linked === undefined);
    if (values.length === 0) return [];
    const enumerated = enumeratedValues(ctx.contract.schema(param.schema) ?? {})?.length ?? 0;
    const most = Math.max(limit, enumerated);
    sets = sets.flatMap((set) => values.slice(0, most).map((value) => ({ ...set, [param.name]: value }))).slice(0, most);
  }
  return sets;
}

/**
 * For a read some link of the contract leads to (its HEAD twin shares its GET's links): the path
 * values the links resolved from real answers, a parameter no link gives taken as for any other
 * read. Undefined when no link leads to it (then ids are found by name); empty while no answer
 * resolved its links yet (when none will, the contract's example is tried and its 404 reported).
 */
function linkedValueSets(ctx: RunContext, op: Operation, limit: number): Array<Record<string, string>> | undefined {
  const get = op.method === 'HEAD' ? ctx.contract.operations.find((o) => o.path === op.path && o.method === 'GET') : op;
  if (!get || !ctx.links.isTarget(get.operationId)) return undefined;
  return ctx.links.valuesFor(get.operationId).slice(0, limit).flatMap((linked) => {
    const values: Record<string, string> = {};
    for (const param of pathParameters(op)) {
      const value = linked[param.name] ?? pathParameterValues(ctx, op, param)[0];
      if (value === undefined) return [];
      values[param.name] = value;
    }
    return [values];
  });
}

/**
 * Calls every read operation with values for its path (enumerations, examples, real ids), in an
 * order where each list runs before the reads that need its ids (repeated passes until nothing
 * more can run; the contract's example of an identifier only when no real id can come any more,
 * and its 404 then tells that it names nothing here). Lists are walked page by page through
 * `next_cursor`. Answers the reads that reached their operation, for the variations and refusals.
 */
export async function discoverReads(ctx: RunContext, reads: Array<{ op: Operation; credential: Credential }>, depth: Discovery = DISCOVERY.full): Promise<ReadyRead[]> {
  const ready: ReadyRead[] = [];
  let pending = [...reads];
  for (let withIdExamples = false; pending.length > 0;) {
    let progress = false;
    for (const read of [...pending]) {
      const sets = pathValueSets(ctx, read.op, depth.idsPerOperation, withIdExamples);
      if (sets.length === 0) continue;
      pending = pending.filter((p) => p !== read);
      progress = true;
      const entry: ReadyRead = { ...read, pathValues: [] };
      for (const values of sets) {
        const examples = exampleIds(ctx, read.op, values);
        const walked = await walk(ctx, read.op, read.credential, values, { exampleIds: examples.length > 0, pages: depth.pages });
        if (walked.reached) entry.pathValues.push(values);
        else if (walked.status === 404) ctx.skip(read.op, EVERY_CALL, `no id for ${examples.map((n) => `{${n}}`).join(', ')}: no answer listed one, and the contract's example names nothing here (404)`);
        entry.cursor ??= walked.cursor;
      }
      if (entry.pathValues.length > 0) ready.push(entry);
    }
    if (!progress && withIdExamples) break;
    withIdExamples = !progress;
  }
  for (const { op } of pending) {
    if (linkedValueSets(ctx, op, depth.idsPerOperation) !== undefined) {
      ctx.skip(op, EVERY_CALL, 'no answer resolved a link of the contract that leads here (an empty list has no item to read)');
      continue;
    }
    const unknown = pathParameters(op).filter((p) => pathParameterValues(ctx, op, p).length === 0).map((p) => `{${p.name}}`);
    ctx.skip(op, EVERY_CALL, `no value for ${unknown.join(', ')}: the contract gives no enum or example, and no answer listed an id`);
  }
  return ready;
}

/** One read, or a list walked page by page: pages no longer than `limit`, no item twice. */
async function walk(ctx: RunContext, op: Operation, credential: Credential, values: Record<string, string>, { exampleIds, pages }: { exampleIds: boolean; pages: number }): Promise<{ cursor: string | undefined; reached: boolean; status: number | undefined }> {
  const names = queryParameters(op).map((p) => p.name);
  const paged = names.includes('limit') && names.includes('cursor');
  const seen = new Set<string>();
  let cursor: string | undefined;
  let firstCursor: string | undefined;
  let first: number | undefined;
  // An example's id may name nothing here: its 404 (as documented) is an answer, not a failure.
  const expected: Expectation = exampleIds ? (response) => (response.status === 404 ? [] : reaches(op)(response)) : reaches(op);
  for (let page = 1; page <= (paged ? pages : 1); page += 1) {
    const query: Array<[string, string]> = paged ? [['limit', String(WALK_LIMIT)]] : [];
    if (cursor) query.push(['cursor', cursor]);
    const title = !paged ? 'read' : page === 1 ? `list, first page of ${WALK_LIMIT}` : `list, page ${page} through next_cursor`;
    const pageCheck: Expectation = (response) => {
      const items = (response.json as { data?: { items?: unknown } } | undefined)?.data?.items;
      if (!paged || !Array.isArray(items)) return [];
      const problems: string[] = [];
      if (items.length > WALK_LIMIT) problems.push(`limit=${WALK_LIMIT} answered ${items.length} items`);
      for (const item of items) {
        // Items without an id (cited pages are keyed by URL) are told apart by their whole content.
        const own = (item as { id?: unknown } | null)?.id;
        const id = own === undefined ? JSON.stringify(item) : typeof own === 'string' ? own : JSON.stringify(own);
        if (seen.has(id)) problems.push(`item ${quoted(id.length > 80 ? `${id.slice(0, 80)}…` : id)} appears again on page ${page}`);
        seen.add(id);
      }
      return problems;
    };
    const response = await ctx.exchange(op, title, { method: op.method, path: fillPath(op.path, values), query, credential }, all(expected, pageCheck));
    if (page === 1) first = response?.status;
    const next = (response?.json as { data?: { next_cursor?: unknown } } | undefined)?.data?.next_cursor;
    if (typeof next !== 'string' || next === '') break;
    cursor = next;
    firstCursor ??= next;
  }
  return { cursor: firstCursor, reached: first !== undefined && reached(op, first), status: first };
}

/**
 * Calls a read again across its parameters: every value of every enumeration (every `range`,
 * every `format`, every filter value) in rows, each real id as a filter, and `examples` draws of
 * valid values by fast-check from the parameters' schemas (biased to their bounds), each of which
 * must be accepted; a refused one is shrunk before it is reported.
 */
export async function varyRead(ctx: RunContext, { op, credential, pathValues }: ReadyRead, examples: number): Promise<void> {
  const request = (query: Array<[string, string]>): OutgoingRequest => ({ method: op.method, path: fillPath(op.path, pathValues[0]!), query, credential });
  const rows = enumerationRows(ctx, op);
  for (const [i, query] of rows.entries()) await ctx.exchange(op, `enumerated values, row ${i + 1} of ${rows.length}`, request(query), reaches(op));
  for (const param of queryParameters(op)) {
    const schema = ctx.contract.schema(param.schema);
    const id = schema?.format === 'uuid' ? ctx.ids.forName(param.name)[0] : undefined;
    if (id) await ctx.exchange(op, `${param.name} = a real id`, request([[param.name, id]]), reaches(op));
  }
  const model = validModel(ctx, op);
  if (model) await checkProperty(ctx, op, 'valid values accepted', model, (query) => request(query), () => reaches(op), examples);
}

/** Rows that together give every enumerated parameter each of its values (the longest enumeration sets the count). */
function enumerationRows(ctx: RunContext, op: Operation): Array<Array<[string, string]>> {
  const enumerated = queryParameters(op)
    .map((p) => ({ name: p.name, values: enumeratedValues(ctx.contract.schema(p.schema) ?? {}) }))
    .filter((e): e is { name: string; values: string[] } => e.values !== undefined && e.values.length > 0);
  const rows = Math.max(0, ...enumerated.map((e) => e.values.length));
  return Array.from({ length: rows }, (_, i) => enumerated.map((e): [string, string] => [e.name, e.values[i % e.values.length]!]));
}

/** Valid values of any subset of the query parameters, as query pairs; undefined when the operation takes none. */
function validModel(ctx: RunContext, op: Operation): fc.Arbitrary<Array<[string, string]>> | undefined {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const param of queryParameters(op)) {
    // A cursor is opaque: only the service makes valid ones.
    if (param.name === 'cursor') continue;
    const arbitrary = validArbitrary(ctx.contract.schema(param.schema) ?? ({}), ctx.ids.forName(param.name));
    if (arbitrary) model[param.name] = arbitrary;
  }
  if (Object.keys(model).length === 0) return undefined;
  return fc.record(model, { requiredKeys: [] }).map((sample) => Object.entries(sample).filter((e): e is [string, string] => e[1] !== undefined));
}
