import { describe, it, expect } from 'vitest';
import { compareSchemas, type Direction } from '../../../scripts/contract-diff/schema-compat.mjs';

// Direct checks of the direction rules on inline schemas (no document needed).
const doc = {};
const compare = (direction: Direction, before: unknown, after: unknown) =>
  compareSchemas(before, after, { direction, oldDoc: doc, newDoc: doc, id: 'x' });
const isBreaking = (direction: Direction, before: unknown, after: unknown) =>
  compare(direction, before, after).some((c) => c.breaking);

describe('schema-compat: type sets', () => {
  it.each([
    // [direction, old, new, breaking]
    ['response', { type: 'integer' }, { type: 'string' }, true],
    ['response', { type: 'string' }, { type: ['string', 'null'] }, true],
    ['response', { type: ['string', 'null'] }, { type: 'string' }, false],
    ['response', { type: 'number' }, { type: 'integer' }, false],
    ['response', { type: 'integer' }, { type: 'number' }, true],
    ['response', { type: 'string' }, {}, true],
    ['request', { type: ['string', 'integer'] }, { type: 'string' }, true],
    ['request', { type: 'string' }, { type: ['string', 'null'] }, false],
    ['request', { type: 'integer' }, { type: 'number' }, false],
    ['request', {}, { type: 'string' }, true],
    ['request', { type: 'string', nullable: true }, { type: 'string' }, true],
  ] as const)('%s %j → %j breaking=%s', (direction, before, after, expected) => {
    expect(isBreaking(direction, before, after)).toBe(expected);
  });
});

describe('schema-compat: values and limits', () => {
  it('adding an enum restriction breaks requests, not responses', () => {
    expect(isBreaking('request', { type: 'string' }, { type: 'string', enum: ['a'] })).toBe(true);
    expect(isBreaking('response', { type: 'string' }, { type: 'string', enum: ['a'] })).toBe(false);
  });

  it('a removed enum value breaks both directions; an added one neither', () => {
    for (const direction of ['request', 'response'] as const) {
      expect(isBreaking(direction, { enum: ['a', 'b'] }, { enum: ['a'] })).toBe(true);
      expect(isBreaking(direction, { enum: ['a'] }, { enum: ['a', 'b'] })).toBe(false);
    }
  });

  it('tightened limits break requests only', () => {
    const before = { type: 'string', minLength: 1, maxLength: 10 };
    const after = { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' };
    expect(compare('request', before, after).filter((c) => c.breaking).map((c) => c.detail)).toEqual([
      'maxLength 10 → 5',
      'minLength 1 → 2',
      'pattern (none) → "^[a-z]+$"',
    ]);
    expect(isBreaking('response', before, after)).toBe(false);
  });

  it('format: changed breaks both; added breaks requests; dropped breaks responses', () => {
    expect(isBreaking('response', { type: 'string', format: 'date' }, { type: 'string', format: 'date-time' })).toBe(true);
    expect(isBreaking('request', { type: 'string' }, { type: 'string', format: 'uuid' })).toBe(true);
    expect(isBreaking('response', { type: 'string' }, { type: 'string', format: 'uuid' })).toBe(false);
    expect(isBreaking('response', { type: 'string', format: 'uuid' }, { type: 'string' })).toBe(true);
    expect(isBreaking('request', { type: 'string', format: 'uuid' }, { type: 'string' })).toBe(false);
  });
});

describe('schema-compat: unions and allOf', () => {
  const a = { type: 'object', title: 'A', properties: { a: { type: 'string' } } };
  const b = { type: 'object', title: 'B', properties: { b: { type: 'string' } } };

  it('a new alternative breaks responses; a removed one breaks requests', () => {
    expect(isBreaking('response', { oneOf: [a] }, { oneOf: [a, b] })).toBe(true);
    expect(isBreaking('request', { oneOf: [a] }, { oneOf: [a, b] })).toBe(false);
    expect(isBreaking('request', { oneOf: [a, b] }, { oneOf: [a] })).toBe(true);
  });

  it('compares allOf members as one merged object', () => {
    const before = { allOf: [a, { type: 'object', required: ['c'], properties: { c: { type: 'integer' } } }] };
    const after = { allOf: [a, { type: 'object', properties: {} }] };
    const changes = compare('response', before, after);
    expect(changes.filter((c) => c.breaking).map((c) => [c.kind, c.id])).toEqual([['removed-field', 'x c']]);
  });
});
