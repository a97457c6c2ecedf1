import fc from 'fast-check';
import type { OpenApiContract, Schema } from './openapi-contract.js';

/**
 * JSON request bodies derived from an operation's request schema alone: fast-check arbitraries of
 * valid bodies with their edges (every enumeration value and both bounds of each bounded field, in
 * as few bodies as the longest list of edges), and of invalid bodies, one field made invalid at a
 * time, each of which says which field (or unknown property) a refusal must name.
 */

export type Body = Record<string, unknown>;

/** An invalid body and the field it breaks ('' when the body as a whole is wrong: no field at all). */
export interface InvalidBody {
  body: Body;
  field: string;
  /** What was made invalid, for the case's title (`name: longer than 100`). */
  kind: string;
}

/** A valid base and the one change that makes it invalid (kept apart so that fast-check can shrink both). */
export type InvalidDraw = [Body, Change];

interface Change { field: string; kind: string; value: unknown; missing?: boolean }

export interface BodyModel {
  valid: fc.Arbitrary<Body>;
  /** Valid bodies that reach every enumeration value and both bounds of each bounded field. */
  edges: Body[];
  /** The required fields alone, each with a plain valid value. */
  sample: Body;
  invalid: fc.Arbitrary<InvalidDraw> | undefined;
  /** One invalid draw per field and kind of invalidity (`--full` sends them all). */
  everyInvalid: InvalidDraw[];
}

/** The body an invalid draw sends, and the field its refusal must name. */
export function invalidBody([base, change]: InvalidDraw): InvalidBody {
  if (change.field === '') return { body: {}, field: '', kind: change.kind };
  const body: Body = { ...base };
  if (change.missing) delete body[change.field];
  else body[change.field] = change.value;
  return { body, field: change.field, kind: change.kind };
}

/** What a field's value may be drawn from beyond its schema. */
export interface BodyContext {
  /** The one URL the run may point the service at (`--webhook-url`): a `uri` field takes it, lengthened. */
  url: string;
  /** A property name no schema documents (`additionalProperties: false` must refuse it). */
  unknownProperty: string;
  now: Date;
}

interface FieldModel {
  valid: fc.Arbitrary<unknown>;
  edges: unknown[];
  /** A valid value for a required field in a body whose edges lie elsewhere. */
  sample: unknown;
  invalid: Array<{ kind: string; value: fc.Arbitrary<unknown>; sample: unknown }>;
}

/** Printable ASCII. */
const text = (minLength: number, maxLength: number) => fc.string({ unit: 'grapheme-ascii', minLength, maxLength });

/** Whitespace alone: what a `pattern` asking for some other character (a name's `\S`) refuses. */
const blank = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\u00a0'), minLength, maxLength });

function types(schema: Schema): string[] {
  return Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
}

function stringModel(schema: Schema, context: BodyContext): FieldModel | undefined {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength;
  const invalid: FieldModel['invalid'] = [{ kind: 'not a string', value: fc.integer({ min: 0, max: 1_000 }), sample: 42 }];
  if (max !== undefined) invalid.push({ kind: `longer than ${max}`, value: fc.string({ unit: fc.constant('y'), minLength: max + 1, maxLength: max + 40 }), sample: 'y'.repeat(max + 1) });
  if (min > 0) invalid.push({ kind: `shorter than ${min}`, value: fc.constant(''), sample: '' });
  if (schema.format === 'uri') {
    // The base is the run's own endpoint; lengthened up to the bound by path characters.
    const base = context.url.replace(/\/$/, '');
    const room = Math.max(0, (max ?? base.length + 64) - base.length - 1);
    const suffix = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), maxLength: Math.min(room, 40) });
    const joined = (s: string) => (s === '' ? base : `${base}/${s}`);
    const valid = suffix.map(joined, (v) => {
      if (typeof v !== 'string' || !v.startsWith(base)) throw new Error('not a lengthened base URL');
      return v === base ? '' : v.slice(base.length + 1);
    });
    invalid.push({ kind: 'not a URI', value: fc.constantFrom('not a uri', 'http//missing-colon', '://no-scheme'), sample: 'not a uri' });
    return { valid, edges: [base, ...(max === undefined || room === 0 ? [] : [joined('y'.repeat(room))])], sample: base, invalid };
  }
  if (schema.format === 'date-time') {
    // "in the future" in a field's description is a rule of the service the schema cannot say.
    const future = /in the future/i.test(schema.description ?? '');
    const from = future ? context.now.getTime() + 3_600_000 : Date.parse('2000-01-01T00:00:00Z');
    const to = future ? context.now.getTime() + 2 * 365 * 86_400_000 : Date.parse('2099-12-31T00:00:00Z');
    const valid = fc.integer({ min: Math.floor(from / 1000), max: Math.floor(to / 1000) }).map(
      (s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z'),
      (v) => {
        if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw new Error('not a date-time');
        return Math.floor(Date.parse(v) / 1000);
      },
    );
    invalid.push({ kind: 'not a date-time', value: fc.constantFrom('not-a-date', '2026-13-45T00:00:00Z', '2026-01-15'), sample: 'not-a-date' });
    return { valid, edges: [], sample: new Date(from + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'), invalid };
  }
  if (schema.format !== undefined) return undefined;
  const upper = max ?? 64;
  const lower = Math.max(min, 1);
  // ECMAScript regular expressions with the `u` flag, as JSON Schema (and the service's validator) reads them.
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
  const fits = (s: string) => pattern === undefined || pattern.test(s);
  const edges = [...new Set(['y'.repeat(lower), 'y'.repeat(upper)])];
  if (!edges.every(fits)) return undefined;
  if (pattern !== undefined && !fits(' '.repeat(lower))) {
    invalid.push({ kind: `whitespace alone (pattern ${schema.pattern})`, value: blank(lower, Math.min(upper, 24)).filter((s) => !fits(s)), sample: ' '.repeat(lower) });
  }
  return {
    valid: fc.oneof(text(lower, Math.min(upper, 24)), fc.constant('y'.repeat(upper))).filter(fits),
    edges,
    sample: 'y'.repeat(lower),
    invalid,
  };
}

function fieldModel(contract: OpenApiContract, raw: Schema, context: BodyContext): FieldModel | undefined {
  const schema = contract.schema(raw) ?? {};
  const t = types(schema);
  const nullable = t.includes('null');
  const model = ((): FieldModel | undefined => {
    if (schema.enum) {
      const values = schema.enum.filter((v) => v !== null);
      return {
        valid: fc.constantFrom(...values), edges: values, sample: values[0],
        invalid: [{ kind: 'not one of the enumeration', value: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !values.includes(s)), sample: 'zz-not-one-of-them' }],
      };
    }
    if (t.includes('boolean')) {
      return { valid: fc.boolean(), edges: [true, false], sample: true, invalid: [{ kind: 'not a boolean', value: fc.constantFrom('yes', 'true', 1), sample: 'yes' }] };
    }
    if (t.includes('integer')) {
      const min = schema.minimum ?? 0;
      const max = schema.maximum ?? min + 1_000;
      const invalid: FieldModel['invalid'] = [{ kind: 'not an integer', value: fc.constantFrom('1', 1.5, 'one'), sample: '1' }];
      if (schema.maximum !== undefined) invalid.push({ kind: `above ${schema.maximum}`, value: fc.integer({ min: schema.maximum + 1, max: schema.maximum + 1_000_000 }), sample: schema.maximum + 1 });
      if (schema.minimum !== undefined) invalid.push({ kind: `below ${schema.minimum}`, value: fc.integer({ min: schema.minimum - 1_000_000, max: schema.minimum - 1 }), sample: schema.minimum - 1 });
      return { valid: fc.integer({ min, max }), edges: [...new Set([min, max])], sample: min, invalid };
    }
    if (t.includes('array')) return arrayModel(contract, schema);
    if (t.includes('string')) return stringModel(schema, context);
    return undefined;
  })();
  if (!model || !nullable) return model;
  return { ...model, valid: fc.oneof(model.valid, fc.constant(null)), edges: [...model.edges, null] };
}

/** Arrays of an enumeration (event types, scopes): every value in as few arrays as `maxItems` allows. */
function arrayModel(contract: OpenApiContract, schema: Schema): FieldModel | undefined {
  const items = contract.schema(schema.items) ?? {};
  const values = items.enum?.filter((v) => v !== null);
  if (!values || values.length === 0) return undefined;
  const min = schema.minItems ?? 0;
  const max = Math.max(1, Math.min(schema.maxItems ?? values.length, values.length));
  const edges: unknown[][] = [];
  for (let i = 0; i < values.length; i += max) edges.push(values.slice(i, i + max));
  edges.push(values.slice(0, min));
  const invalid: FieldModel['invalid'] = [
    { kind: 'not an array', value: fc.constantFrom(...values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))), sample: JSON.stringify(values) },
    { kind: 'an item not one of the enumeration', value: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !values.includes(s)).map((s) => [s]), sample: ['zz-not-one-of-them'] },
  ];
  if (min > 0) invalid.push({ kind: `fewer than ${min} items`, value: fc.constant([]), sample: [] });
  const maxItems = schema.maxItems;
  if (maxItems !== undefined) {
    invalid.push({ kind: `more than ${maxItems} items`, value: fc.array(fc.constantFrom(...values), { minLength: maxItems + 1, maxLength: maxItems + 3 }), sample: Array.from({ length: maxItems + 1 }, (_, i) => values[i % values.length]) });
  }
  if (schema.uniqueItems) invalid.push({ kind: 'an item twice', value: fc.constantFrom(...values).map((v) => [v, v]), sample: [values[0], values[0]] });
  return { valid: fc.uniqueArray(fc.constantFrom(...values), { minLength: min, maxLength: max }), edges: [...new Set(edges.map((e) => JSON.stringify(e)))].map((e) => JSON.parse(e) as unknown), sample: values.slice(0, Math.max(min, 1)), invalid };
}

/**
 * The model of an operation's JSON body; undefined when its schema is not an object of properties
 * this module can draw (then no property-based body case is made).
 */
export function bodyModel(contract: OpenApiContract, schemaPointer: string, context: BodyContext): BodyModel | undefined {
  const schema = contract.schemaAt(schemaPointer);
  if (!schema?.properties) return undefined;
  const required = schema.required ?? [];
  const fields: Record<string, FieldModel> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const model = fieldModel(contract, property, context);
    if (model) fields[name] = model;
    else if (required.includes(name)) return undefined;
  }
  const names = Object.keys(fields);
  if (names.length === 0) return undefined;
  const minProperties = schema.minProperties ?? 0;
  const valid = fc.record(Object.fromEntries(names.map((n) => [n, fields[n]!.valid])), { requiredKeys: required.filter((r) => names.includes(r)) })
    .filter((body) => Object.keys(body).length >= minProperties) as fc.Arbitrary<Body>;
  const rows = Math.max(1, ...names.map((n) => fields[n]!.edges.length));
  const edges = Array.from({ length: rows }, (_, i) => {
    const body: Body = {};
    for (const name of names) {
      const { edges: own, sample } = fields[name]!;
      if (own.length > 0) body[name] = own[i % own.length];
      else if (required.includes(name)) body[name] = sample;
    }
    for (const name of names) if (Object.keys(body).length < minProperties && !(name in body)) body[name] = fields[name]!.sample;
    return body;
  });

  // One field made invalid at a time, on a base that is valid in every other field.
  const changes: Array<{ arbitrary: fc.Arbitrary<Change>; sample: Change }> = [];
  for (const name of names) {
    for (const inv of fields[name]!.invalid) {
      changes.push({
        arbitrary: inv.value.map((value): Change => ({ field: name, kind: inv.kind, value }), (c) => {
          // Lets an example (`--full`'s every invalid body) be shrunk: only its own kind unmaps.
          if ((c as Change).field !== name || (c as Change).kind !== inv.kind) throw new Error('another change');
          return (c as Change).value;
        }),
        sample: { field: name, kind: inv.kind, value: inv.sample },
      });
    }
  }
  for (const name of required.filter((r) => names.includes(r))) {
    const missing: Change = { field: name, kind: 'missing', value: null, missing: true };
    changes.push({ arbitrary: fc.constant(missing), sample: missing });
  }
  if (schema.additionalProperties === false) {
    const unknown: Change = { field: context.unknownProperty, kind: 'not a documented property', value: true };
    changes.push({ arbitrary: fc.constant(unknown), sample: unknown });
  }
  if (schema.minProperties === 1 && required.length === 0) {
    const empty: Change = { field: '', kind: 'no field at all', value: null, missing: true };
    changes.push({ arbitrary: fc.constant(empty), sample: empty });
  }
  const base = fc.record(Object.fromEntries(names.map((n) => [n, fields[n]!.valid])), { requiredKeys: required.filter((r) => names.includes(r)) }) as fc.Arbitrary<Body>;
  const invalid = changes.length === 0 ? undefined : fc.tuple(base, fc.oneof(...changes.map((c) => c.arbitrary)));
  const sample: Body = Object.fromEntries(required.filter((r) => names.includes(r)).map((r) => [r, fields[r]!.sample]));
  return { valid, edges, sample, invalid, everyInvalid: changes.map((c): InvalidDraw => [sample, c.sample]) };
}
