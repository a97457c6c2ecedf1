import fc from 'fast-check';
import { all, reaches, type Expectation } from './expectations.js';
import type { Credential } from './http-exchange.js';
import type { Operation, Parameter, Schema } from './openapi-contract.js';
import { enumeratedValues, validArbitrary } from './parameter-values.js';
import { EVERY_CALL } from './report.js';
import type { RunContext } from './run-context.js';

/** Pages walked per list: enough to follow cursors twice without reading a whole large list. */
const WALK_PAGES = 3;
/** Page size while walking, so even short lists have a second page. */
const WALK_LIMIT = 2;
/** Item reads per operation: the first ids its list answered. */
const IDS_PER_OPERATION = 2;
/** Property-based variations of the parameters per operation. */
const VARIATIONS = 2;

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

/** Every combination of real ids for the path, at most `limit` of them; empty when one is unknown. */
function pathValueSets(ctx: RunContext, op: Operation, limit: number): Array<Record<string, string>> {
  let sets: Array<Record<string, string>> = [{}];
  for (const param of pathParameters(op)) {
    const ids = ctx.ids.forPathParameter(op, param.name);
    if (ids.length === 0) return [];
    sets = sets.flatMap((set) => ids.slice(0, limit).map((id) => ({ ...set, [param.name]: id }))).slice(0, limit);
  }
  return sets;
}

/**
 * Calls every read operation with real ids, in an order where each list runs before the reads
 * that need its ids (repeated passes until nothing more can run). Lists are walked page by page
 * through `next_cursor`. Answers the reads that ran, for the variations and refusals.
 */
export async function discoverReads(ctx: RunContext, reads: Array<{ op: Operation; credential: Credential }>): Promise<ReadyRead[]> {
  const ready: ReadyRead[] = [];
  let pending = [...reads];
  for (let progress = true; progress && pending.length > 0;) {
    progress = false;
    for (const read of [...pending]) {
      const sets = pathValueSets(ctx, read.op, IDS_PER_OPERATION);
      if (sets.length === 0) continue;
      pending = pending.filter((p) => p !== read);
      progress = true;
      const entry: ReadyRead = { ...read, pathValues: sets };
      for (const values of sets) {
        entry.cursor ??= await walk(ctx, read.op, read.credential, values);
      }
      ready.push(entry);
    }
  }
  for (const { op } of pending) {
    const unknown = pathParameters(op).filter((p) => ctx.ids.forPathParameter(op, p.name).length === 0).map((p) => `{${p.name}}`);
    ctx.skip(op, EVERY_CALL, `no id for ${unknown.join(', ')}: no answer so far listed one`);
  }
  return ready;
}

/** One read, or a list walked page by page: pages no longer than `limit`, no item twice. */
async function walk(ctx: RunContext, op: Operation, credential: Credential, values: Record<string, string>): Promise<string | undefined> {
  const names = queryParameters(op).map((p) => p.name);
  const paged = names.includes('limit') && names.includes('cursor');
  const seen = new Set<string>();
  let cursor: string | undefined;
  let firstCursor: string | undefined;
  for (let page = 1; page <= (paged ? WALK_PAGES : 1); page += 1) {
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
        const id = own === undefined ? JSON.stringify(item) : String(own);
        if (seen.has(id)) problems.push(`item ${id.length > 80 ? `${id.slice(0, 80)}…` : id} appears again on page ${page}`);
        seen.add(id);
      }
      return problems;
    };
    const response = await ctx.exchange(op, title, { method: op.method, path: fillPath(op.path, values), query, credential }, all(reaches(op), pageCheck));
    const next = (response?.json as { data?: { next_cursor?: unknown } } | undefined)?.data?.next_cursor;
    if (typeof next !== 'string' || next === '') break;
    cursor = next;
    firstCursor ??= next;
  }
  return firstCursor;
}

/**
 * Calls each read again across its parameters: every value of every enumeration (every `range`,
 * every `format`, every filter value) in rows, each real id as a filter, and property-based
 * variations drawn by fast-check from the parameters' schemas with the run's seed.
 */
export async function varyReads(ctx: RunContext, ready: readonly ReadyRead[]): Promise<void> {
  for (const { op, credential, pathValues } of ready) {
    const send = (title: string, query: Array<[string, string]>) =>
      ctx.exchange(op, title, { method: op.method, path: fillPath(op.path, pathValues[0]!), query, credential }, reaches(op));
    const rows = enumerationRows(ctx, op);
    for (const [i, query] of rows.entries()) await send(`enumerated values, row ${i + 1} of ${rows.length}`, query);
    for (const param of queryParameters(op)) {
      const schema = ctx.contract.schema(param.schema);
      const id = schema?.format === 'uuid' ? ctx.ids.forName(param.name)[0] : undefined;
      if (id) await send(`${param.name} = a real id`, [[param.name, id]]);
    }
    for (const [i, query] of propertyVariations(ctx, op).entries()) await send(`property-based variation ${i + 1}`, query);
  }
}

/** Rows that together give every enumerated parameter each of its values (the longest enumeration sets the count). */
function enumerationRows(ctx: RunContext, op: Operation): Array<Array<[string, string]>> {
  const enumerated = queryParameters(op)
    .map((p) => ({ name: p.name, values: enumeratedValues(ctx.contract.schema(p.schema) ?? {}) }))
    .filter((e): e is { name: string; values: string[] } => e.values !== undefined && e.values.length > 0);
  const rows = Math.max(0, ...enumerated.map((e) => e.values.length));
  return Array.from({ length: rows }, (_, i) => enumerated.map((e): [string, string] => [e.name, e.values[i % e.values.length]!]));
}

function propertyVariations(ctx: RunContext, op: Operation): Array<Array<[string, string]>> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const param of queryParameters(op)) {
    // A cursor is opaque: only the service makes valid ones.
    if (param.name === 'cursor') continue;
    const arbitrary = validArbitrary(ctx.contract.schema(param.schema) ?? ({} as Schema), ctx.ids.forName(param.name));
    if (arbitrary) model[param.name] = arbitrary;
  }
  if (Object.keys(model).length === 0) return [];
  const samples = fc.sample(fc.record(model, { requiredKeys: [] }), { seed: ctx.values.seedFor(op.operationId), numRuns: VARIATIONS });
  return samples.map((sample) => Object.entries(sample).filter((e): e is [string, string] => e[1] !== undefined));
}
