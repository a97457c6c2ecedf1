import fc from 'fast-check';
import type { Schema } from './openapi-contract.js';

/**
 * Parameter values derived from a parameter's schema alone: every value of an enumeration, one
 * value the schema refuses, and fast-check arbitraries of valid and invalid values (biased toward
 * the edges: minimum, maximum, the shortest and longest strings).
 */

function types(schema: Schema): string[] {
  return Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
}

/** Every value an enumerated parameter takes, as sent in a query; undefined when it is not enumerated. */
export function enumeratedValues(schema: Schema): string[] | undefined {
  if (schema.enum) return schema.enum.filter((v) => v !== null).map(String);
  if (schema.const !== undefined) return [typeof schema.const === 'string' ? schema.const : JSON.stringify(schema.const)];
  if (types(schema).includes('boolean')) return ['true', 'false'];
  return undefined;
}

/** A value the schema refuses, or undefined when the schema accepts every string. */
export function invalidValue(schema: Schema): string | undefined {
  const t = types(schema);
  if (schema.enum || schema.const !== undefined) return 'zz-not-one-of-them';
  if (t.includes('boolean')) return 'maybe';
  if (t.includes('integer') || t.includes('number')) {
    if (schema.maximum !== undefined) return String(schema.maximum + 1);
    if (schema.minimum !== undefined) return String(schema.minimum - 1);
    return 'not-a-number';
  }
  if (schema.format === 'uuid') return 'not-a-uuid';
  if (schema.format === 'date' || schema.format === 'date-time') return 'not-a-date';
  if (schema.maxLength !== undefined) return 'x'.repeat(schema.maxLength + 1);
  if (schema.minLength !== undefined && schema.minLength > 0) return '';
  return undefined;
}

/** Valid values; a UUID filter draws from real ids when there are any, so it matches something. */
export function validArbitrary(schema: Schema, ids: readonly string[]): fc.Arbitrary<string> | undefined {
  const enumerated = enumeratedValues(schema);
  if (enumerated) return fc.constantFrom(...enumerated);
  const t = types(schema);
  if (t.includes('integer')) {
    return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1_000 }).map(String);
  }
  if (schema.format === 'uuid') return ids.length > 0 ? fc.oneof(fc.constantFrom(...ids), fc.uuid()) : fc.uuid();
  if (schema.format === 'date') return fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
  if (t.includes('string') && schema.format === undefined) {
    // Short strings are what filters meet in practice; the longest allowed one is the edge.
    const maxLength = schema.maxLength ?? 64;
    return fc.oneof(
      fc.string({ minLength: Math.max(schema.minLength ?? 0, 1), maxLength: Math.min(maxLength, 24) }),
      fc.constant('y'.repeat(maxLength)),
    );
  }
  return undefined;
}

/** Values the schema refuses, of every kind it can refuse (out of range on each side, not a number, …). */
export function invalidArbitrary(schema: Schema): fc.Arbitrary<string> | undefined {
  const t = types(schema);
  if (t.includes('integer') || t.includes('number')) {
    const kinds: Array<fc.Arbitrary<string>> = [fc.constantFrom('abc', '', 'one')];
    if (schema.maximum !== undefined) kinds.push(fc.integer({ min: schema.maximum + 1, max: schema.maximum + 1_000_000 }).map(String));
    if (schema.minimum !== undefined) kinds.push(fc.integer({ min: schema.minimum - 1_000_000, max: schema.minimum - 1 }).map(String));
    return fc.oneof(...kinds);
  }
  if (schema.enum) {
    const allowed = new Set(schema.enum.map(String));
    return fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !allowed.has(s));
  }
  if (t.includes('boolean')) return fc.constantFrom('maybe', 'yes', '2', 'TRUE!');
  if (schema.format === 'uuid') return fc.constantFrom('not-a-uuid', '1234', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz');
  const fixed = invalidValue(schema);
  return fixed === undefined ? undefined : fc.constant(fixed);
}

/**
 * A valid value of a path parameter that names nothing, derived from its schema: a fresh UUID, the
 * largest integer allowed, a string matching the `pattern` (drawn by fast-check from `seed`), a
 * date long past, or a made-up string within the lengths. Undefined for an enumeration (each
 * value it allows may name something, and any other is malformed, a 422).
 */
export function unknownValue(schema: Schema, values: { uuid: () => string; seed: number }): string | undefined {
  const t = types(schema);
  if (enumeratedValues(schema)) return undefined;
  if (schema.format === 'uuid') return values.uuid();
  if (t.includes('integer') || t.includes('number')) return String(schema.maximum ?? 2 ** 31 - 1);
  if (schema.format === 'date') return '1970-01-02';
  if (schema.format === 'date-time') return '1970-01-02T00:00:00.000Z';
  if (schema.pattern !== undefined) {
    const arbitrary = fc.stringMatching(new RegExp(schema.pattern, 'u')).filter((s) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity));
    return fc.sample(arbitrary, { seed: values.seed, numRuns: 1 })[0];
  }
  const made = `zz-unknown-${(values.seed >>> 0).toString(36)}`;
  const length = Math.max(schema.minLength ?? 1, Math.min(made.length, schema.maxLength ?? made.length));
  return made.padEnd(length, 'z').slice(0, length);
}
