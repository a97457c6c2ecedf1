import type { ImportLine } from '../store/interfaces/imports.js';
import { DELETE_SCHEMA, IMPORT_RECORD_TYPES, importRecordType } from '../import-engine/import-record-types.js';
import { ImportError } from '../import-engine/import-error.js';
import { describeSchemaError, fieldPath, schemaValidator } from './schemas.js';

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A JSON pointer segment (`~` and `/` escaped), as the schema errors name fields. */
const segment = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The JSON pointer of the first string or key of `value` holding NUL (`\u0000`), or undefined.
 * Text never holds NUL, on either store (README, "Importing data"): PostgreSQL cannot store it.
 */
function firstNul(value: unknown, pointer: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = firstNul(item, `${pointer}/${i}`);
      if (found !== undefined) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = key.includes('\u0000') ? `${pointer}/${segment(key)}` : firstNul(item, `${pointer}/${segment(key)}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The record of one physical line, parsed and checked against its schema; undefined for a blank line. */
function checkedRecord(raw: string, line: number): ImportLine['record'] | undefined {
  let text = raw;
  if (text.length === 0) return undefined;
  if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
  if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    if (/^\s*$/.test(text)) return undefined;
    throw new ImportError(line, '-', `is not valid JSON (${(err as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ImportError(line, '-', 'must be a JSON object');
  const record = value as Record<string, unknown>;
  const typeName = record.type;
  if (typeName === undefined) throw new ImportError(line, 'type', 'is required');
  let schema = DELETE_SCHEMA;
  if (typeName !== 'delete') {
    const type = typeof typeName === 'string' ? importRecordType(typeName) : undefined;
    if (!type) throw new ImportError(line, 'type', `${shown(typeName)} is not one of ${IMPORT_RECORD_TYPES.map((t) => t.type).join(', ')}`);
    schema = type.schema;
  }
  // Compiled on a type's first record: a file of four types compiles four schemas, not every schema of the format.
  const validate = schemaValidator(schema);
  if (!validate(record)) {
    const { field, problem } = describeSchemaError(validate.errors![0]!);
    throw new ImportError(line, field, problem);
  }
  const nul = firstNul(record, '');
  if (nul !== undefined) throw new ImportError(line, fieldPath(nul), 'must not hold NUL (\\u0000): text never does');
  return record as ImportLine['record'];
}

/**
 * The lines of an import file, numbered from 1, as the store's import takes them: each record
 * parsed and checked against its schema (`import-format/`), blank lines left out. A line that
 * fails throws its ImportError once the lines before it are handed over, so the import reports
 * the first failing line of the file whichever check finds it.
 */
export async function* checkedLines(batches: AsyncIterable<readonly string[]>): AsyncGenerator<ImportLine[], void, undefined> {
  let line = 0;
  for await (const raw of batches) {
    const checked: ImportLine[] = [];
    for (const text of raw) {
      line += 1;
      let record: ImportLine['record'] | undefined;
      try {
        record = checkedRecord(text, line);
      } catch (err) {
        if (checked.length > 0) yield checked;
        throw err;
      }
      if (record) checked.push({ line, record });
    }
    yield checked;
  }
}
