import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parseTimestamp } from '../store/timestamp.js';
import { keyOfSegment } from '@workspace-read-api/contract/json-pointer.js';

/** The published import format: one JSON Schema per record type plus the root that selects by `type`. */
export const IMPORT_FORMAT_DIR = fileURLToPath(new URL('../../import-format/', import.meta.url));
export const ROOT_SCHEMA = 'import-record.schema.json';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

let compiled: Ajv2020 | undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function schemaFiles(): string[] {
  const records = readdirSync(path.join(IMPORT_FORMAT_DIR, 'records'))
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => `records/${f}`);
  const top = readdirSync(IMPORT_FORMAT_DIR).filter((f) => f.endsWith('.schema.json'));
  return [...top, ...records].sort();
}

/**
 * Loads every schema file once per process; each is compiled on first use (a file that holds only
 * visibility records never pays for the others). test/unit/import compiles the root.
 */
function load(): Ajv2020 {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ allErrors: false, strict: true, verbose: true });
  addFormats(ajv);
  // Three formats every line checks, replaced by stricter or cheaper equivalents (together they
  // were half the validation time): uuid in its hex-and-dash form only (RFC 4122 text, no
  // `urn:uuid:`); date-time by the same parser that turns it into milliseconds; uri by a scheme and
  // no whitespace (the schemas narrow URLs to http(s) with a pattern).
  ajv.addFormat('uuid', UUID);
  ajv.addFormat('date-time', { type: 'string', validate: (text: string) => parseTimestamp(text) !== undefined });
  ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:[^\s]+$/i);
  for (const file of schemaFiles()) {
    const schema = JSON.parse(readFileSync(path.join(IMPORT_FORMAT_DIR, file), 'utf8')) as { $id?: string };
    if (schema.$id !== file) throw new Error(`import-format/${file}: $id must be "${file}"`);
    ajv.addSchema(schema);
  }
  compiled = ajv;
  return compiled;
}

/**
 * The compiled validator of one schema file of import-format/ (e.g. `records/snapshot.schema.json`),
 * compiled on first use and kept by ajv. `T` is the file's type in generated/import-format.d.ts:
 * a value the validator accepts is one.
 */
export function schemaValidator<T = unknown>(file: string): ValidateFunction<T> {
  const validate = load().getSchema<T>(file);
  if (!validate) throw new Error(`import-format/${file} does not exist`);
  return validate;
}

/** `/citations/0/url` → `citations[0].url`. */
export function fieldPath(instancePath: string, child?: string): string {
  let out = '';
  const parts = instancePath === '' ? [] : instancePath.slice(1).split('/');
  if (child !== undefined) parts.push(child);
  for (const raw of parts) {
    const part = keyOfSegment(raw);
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out === '' ? '-' : out;
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const FORMAT_PROBLEM: Record<string, string> = {
  uuid: 'must be a UUID',
  'date-time': 'must be an RFC 3339 date-time with a time zone, e.g. 2026-11-22T09:15:00.000Z',
  hostname: 'must be a domain name, e.g. example.com',
  uri: 'must be an absolute URL',
};

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Turns ajv's first error (compiled with `verbose`, so it carries the value and its schema) into the field path and a problem a person can act on. */
export function describeSchemaError(error: ErrorObject): { field: string; problem: string } {
  const params = error.params as Record<string, unknown>;
  const at = fieldPath(error.instancePath);
  const value: unknown = error.data;
  switch (error.keyword) {
    case 'required':
      return { field: fieldPath(error.instancePath, String(params.missingProperty)), problem: 'is required' };
    case 'additionalProperties':
      return { field: fieldPath(error.instancePath, String(params.additionalProperty)), problem: 'is not a known field' };
    case 'type': {
      const types = String(params.type).split(',');
      return { field: at, problem: `must be ${types.map((t) => ARTICLE[t] ?? t).join(' or ')}, not ${shown(value)}` };
    }
    case 'enum':
      return { field: at, problem: `${shown(value)} is not one of ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'format':
    case 'pattern': {
      // Patterns only narrow a format (only http(s) URLs), so the format names the problem.
      const format = error.keyword === 'format' ? String(params.format) : (error.parentSchema as { format?: string } | undefined)?.format;
      const problem = (format && FORMAT_PROBLEM[format]) ?? `must match ${String(params.pattern)}`;
      return { field: at, problem: format === 'uri' && error.keyword === 'pattern' ? 'must be an http or https URL' : `${problem} (got ${shown(value)})` };
    }
    case 'minLength':
      return { field: at, problem: params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters` };
    case 'maxLength':
      return { field: at, problem: `must be at most ${String(params.limit)} characters` };
    case 'maxItems':
      return { field: at, problem: `must have at most ${String(params.limit)} items` };
    default:
      return { field: at, problem: error.message ?? 'is invalid' };
  }
}
