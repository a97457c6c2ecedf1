// walks-operations: asks every operation of the contract (test/scaffold/ runs it after adding an endpoint)
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { numericParameterProblem, numericQueryParameters } from '../../../../src/http/validation/query-numbers.js';
import { parseDecimalInteger } from '../../../../src/text/decimal-integer.js';
import { parseDecimalNumber } from '../../../../src/text/decimal-number.js';
import { Contract } from '../../../contract/framework/spec.js';

// The parsers of integers and numbers typed by people, and the check of every numeric query
// parameter of the contract, value by value, without a server. That the check is mounted for these
// parameters is shown over HTTP in test/http/security/integer-parameters.test.ts and
// number-parameters.test.ts.

// What `Number()`, JSON-schema coercion or a careless client read as a number, but a person did not write as one.
const NOT_PLAIN_DIGITS = ['Infinity', '-Infinity', '1e400', '1e309', '0x10', '0b1', '0o7', '1e1', '1e3', ' 1', '1 ', '5.0', '+5', '-0', '-5', '5_0', '٥', 'NaN'];
const PLAIN_DIGITS = ['5', '05', '1', '100'];
// Numbers that are not finite, or outside "strictly between 0 and 1", however a client spells them.
const REFUSED_FRACTIONS = ['1e309', '-1e309', 'Infinity', '-Infinity', 'NaN', '0', '1', '-0.5', '1.5', '0x1', ' 0.5', '0.5 ', '1/2', '0,5'];
const ACCEPTED_FRACTIONS = ['0.05', '.05', '5e-2', '0.999', '1e-7'];

interface Parameter { $ref?: string; name?: string; in?: string; schema?: { $ref?: string; type?: unknown } }

const contract = new Contract();
/** `GET /path name` for every query parameter the contract types `type`, walked here apart from the service's own walk. */
function writtenParameters(type: string): string[] {
  return contract.operations.flatMap((op) => {
    const item = contract.document.paths[op.path] as { parameters?: Parameter[] } & Record<string, { parameters?: Parameter[] }>;
    return [...(item.parameters ?? []), ...(item[op.method]?.parameters ?? [])].map((p) => contract.resolve(p))
      .filter((p) => p.in === 'query' && contract.resolve(p.schema ?? {}).type === type)
      .map((p) => `${op.method.toUpperCase()} ${op.path} ${p.name}`);
  }).sort();
}

const byRoute = numericQueryParameters(loadOpenApiDocument());
const checked = [...byRoute].flatMap(([route, parameters]) => parameters.map((parameter) => ({ route, parameter })));
const namesOf = (type: string) => checked.filter((c) => c.parameter.schema.type === type).map((c) => `${c.route} ${c.parameter.name}`).sort();

describe('parseDecimalInteger', () => {
  it('takes plain decimal digits, leading zeros included, up to the largest safe integer', () => {
    expect(['0', '5', '05', '100', '007', '9007199254740991'].map(parseDecimalInteger)).toEqual([0, 5, 5, 100, 7, 9007199254740991]);
  });

  it('refuses every other spelling, and integers too large to be exact', () => {
    for (const text of [...NOT_PLAIN_DIGITS, '', '1\n', '9007199254740992', '9'.repeat(400)]) expect(parseDecimalInteger(text), JSON.stringify(text)).toBeUndefined();
  });
});

describe('parseDecimalNumber', () => {
  it('takes decimal fractions with an optional sign and exponent', () => {
    expect(['0.05', '.05', '5e-2', '5E-2', '0.999', '1e-7', '-0.5', '+2', '3.', '12', '1e+2'].map(parseDecimalNumber)).toEqual([0.05, 0.05, 0.05, 0.05, 0.999, 1e-7, -0.5, 2, 3, 12, 100]);
  });

  it('refuses what is not a finite decimal', () => {
    for (const text of ['1e309', '-1e309', 'Infinity', '-Infinity', 'NaN', '0x1', ' 0.5', '0.5 ', '1/2', '0,5', '', '.', 'e5', '1e', '--1', '1.2.3']) {
      expect(parseDecimalNumber(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});

describe('numericQueryParameters', () => {
  it('finds every query parameter the contract types integer or number, on every operation, HEAD twins included', () => {
    expect(namesOf('integer')).toEqual(writtenParameters('integer'));
    expect(namesOf('number')).toEqual(writtenParameters('number'));
    expect(checked.length).toBe(namesOf('integer').length + namesOf('number').length);
    // Lists added to the contract later join automatically; the floor proves the walk finds them.
    const lists = namesOf('integer').filter((name) => name.startsWith('GET ') && name.endsWith(' limit'));
    expect(lists.filter((name) => name.includes(' /api/v1/')).length).toBeGreaterThanOrEqual(13);
    expect(lists.filter((name) => name.includes(' /api/workspace/')).length).toBeGreaterThanOrEqual(4);
    expect(namesOf('number')).toEqual(expect.arrayContaining([
      'GET /api/v1/visibility/prompts alpha', 'GET /api/v1/visibility/prompts/{prompt} alpha', 'GET /api/v1/visibility/rates alpha',
    ]));
    expect([...byRoute.values()].every((parameters) => parameters.length > 0)).toBe(true);
  });
});

describe('numericParameterProblem', () => {
  it('refuses on every integer parameter of the contract what is not plain decimal digits within its range, naming the range', () => {
    for (const { route, parameter } of checked.filter((c) => c.parameter.schema.type === 'integer')) {
      const { minimum, maximum } = parameter.schema;
      const problem = `must be a whole number from ${minimum} to ${maximum} in plain decimal digits`;
      for (const value of [...NOT_PLAIN_DIGITS, String(minimum! - 1), String(maximum! + 1), '9'.repeat(400)]) {
        expect(numericParameterProblem(parameter, value), `${route} ${parameter.name}=${JSON.stringify(value)}`).toBe(problem);
      }
      const inRange = PLAIN_DIGITS.filter((value) => Number(value) >= minimum! && Number(value) <= maximum!);
      for (const value of [...inRange, String(minimum), String(maximum)]) {
        expect(numericParameterProblem(parameter, value), `${route} ${parameter.name}=${value}`).toBeUndefined();
      }
    }
  });

  it('refuses on every number parameter of the contract what is not a finite decimal strictly within its range', () => {
    for (const { route, parameter } of checked.filter((c) => c.parameter.schema.type === 'number')) {
      for (const value of REFUSED_FRACTIONS) {
        expect(numericParameterProblem(parameter, value), `${route} ${parameter.name}=${JSON.stringify(value)}`).toBe('must be a finite decimal number strictly between 0 and 1');
      }
      for (const value of ACCEPTED_FRACTIONS) expect(numericParameterProblem(parameter, value), `${route} ${parameter.name}=${value}`).toBeUndefined();
    }
  });

  it('names each kind of bound an integer may have, inclusive at both ends', () => {
    const integer = (bounds: object) => ({ schema: { type: 'integer', ...bounds } });
    expect(numericParameterProblem(integer({ minimum: 2 }), '1')).toBe('must be a whole number of at least 2 in plain decimal digits');
    expect(numericParameterProblem(integer({ minimum: 2 }), '2')).toBeUndefined();
    expect(numericParameterProblem(integer({ maximum: 7 }), '8')).toBe('must be a whole number of at most 7 in plain decimal digits');
    expect(numericParameterProblem(integer({ maximum: 7 }), '7')).toBeUndefined();
    expect(numericParameterProblem(integer({}), 'x')).toBe('must be a whole number in plain decimal digits');
    expect(numericParameterProblem(integer({}), '123456')).toBeUndefined();
  });

  it('names each kind of bound a number may have, exclusive ones included', () => {
    const number = (bounds: object) => ({ schema: { type: 'number', ...bounds } });
    expect(numericParameterProblem(number({ minimum: 0, maximum: 5 }), '5.5')).toBe('must be a finite decimal number from 0 to 5');
    expect(numericParameterProblem(number({ minimum: 0, maximum: 5 }), '5')).toBeUndefined();
    expect(numericParameterProblem(number({ minimum: 0, maximum: 5 }), '0')).toBeUndefined();
    expect(numericParameterProblem(number({ exclusiveMinimum: 0 }), '0')).toBe('must be a finite decimal number of more than 0');
    expect(numericParameterProblem(number({ exclusiveMinimum: 0 }), '1e-9')).toBeUndefined();
    expect(numericParameterProblem(number({ exclusiveMaximum: 1 }), '1')).toBe('must be a finite decimal number of less than 1');
    expect(numericParameterProblem(number({ exclusiveMaximum: 1 }), '0.9999')).toBeUndefined();
    expect(numericParameterProblem(number({}), '-1e300')).toBeUndefined();
    expect(numericParameterProblem(number({}), '1e309')).toBe('must be a finite decimal number');
  });
});
