import { describe, expect, it } from 'vitest';
import { unknownValue } from '@workspace-read-api/contract-test/parameter-values.js';
import type { Schema } from '@workspace-read-api/contract-test/openapi-contract.js';

const values = { uuid: () => '3f0c6a52-93a1-4b7e-8d2f-0c1e5a7b9d11', seed: 7 };

// The 404 check gives each path parameter a valid value that names nothing, whatever its type.
describe('a path parameter\'s value that names nothing, from its schema', () => {
  it.each<[string, Schema, (value: string | undefined) => void]>([
    ['a UUID: a fresh one', { type: 'string', format: 'uuid' }, (v) => expect(v).toBe(values.uuid())],
    ['an integer: the largest allowed', { type: 'integer', minimum: 1, maximum: 5000 }, (v) => expect(v).toBe('5000')],
    ['an integer without a maximum: the largest 32-bit one', { type: 'integer' }, (v) => expect(v).toBe('2147483647')],
    ['a date: one long past', { type: 'string', format: 'date' }, (v) => expect(v).toBe('1970-01-02')],
    ['a pattern: a string it matches, within the lengths', { type: 'string', pattern: '^[a-z]{3}-[0-9]{4}$', minLength: 8, maxLength: 8 }, (v) => expect(v).toMatch(/^[a-z]{3}-[0-9]{4}$/)],
    ['a string: a made-up one within the lengths', { type: 'string', minLength: 20, maxLength: 24 }, (v) => expect(v!.length).toBeGreaterThanOrEqual(20)],
    ['a short string: cut to its maxLength', { type: 'string', maxLength: 4 }, (v) => expect(v).toHaveLength(4)],
    ['an enumeration: none (every value may name something; any other is a 422)', { type: 'string', enum: ['week', 'month'] }, (v) => expect(v).toBeUndefined()],
    ['a boolean: none', { type: 'boolean' }, (v) => expect(v).toBeUndefined()],
  ])('%s', (_name, schema, check) => {
    check(unknownValue(schema, values));
  });

  it('draws the same value for the same seed', () => {
    const schema: Schema = { type: 'string', pattern: '^[A-Z][a-z]+$' };
    expect(unknownValue(schema, values)).toBe(unknownValue(schema, values));
  });
});
