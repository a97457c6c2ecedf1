/** A column a `COPY … FROM STDIN` receives, as the encoder needs to know it. */
export interface CopyColumn {
  name: string;
  /** PostgreSQL stores it as BYTEA: values go out as hex (`\\x…`), text and blobs alike. */
  bytea: boolean;
}

/** What a backslash escape stands for in COPY's text format (PostgreSQL's `COPY` page, "Text Format"). */
const TEXT_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const NEEDS_ESCAPE = /[\\\t\n\r]/g;

/** A NULL in COPY's text format: `\N`, which no escaped text value can spell. */
const NULL_FIELD = '\\N';

/**
 * A text value as one field: the backslash, the column delimiter (tab) and the row ends (LF, CR)
 * are escaped; everything else, any Unicode included, goes as it is.
 */
function copyTextField(text: string): string {
  return text.replace(NEEDS_ESCAPE, (ch) => TEXT_ESCAPES[ch]!);
}

/** Bytes as BYTEA's hex input, `\x0aff`, its backslash escaped for the text format. */
function byteaField(bytes: Uint8Array): string {
  return `\\\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}

/**
 * One value read from SQLite (better-sqlite3 with safe integers: INTEGER as bigint, REAL as
 * number, TEXT as string, BLOB as Buffer, NULL as null) as a field of COPY's text format.
 */
function copyField(value: unknown, column: CopyColumn, table: string): string {
  if (value === null || value === undefined) return NULL_FIELD;
  if (typeof value === 'bigint') return value.toString();
  // String() gives the shortest text that reads back as the same double; -0 keeps its sign.
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') {
    if (column.bytea) return byteaField(Buffer.from(value, 'utf8'));
    // PostgreSQL text cannot hold NUL; SQLite can, from files written before the service refused it.
    if (value.includes('\u0000')) throw new TypeError(`column ${column.name} holds NUL (\\u0000), which PostgreSQL text cannot store: remove it in SQLite first`);
    return copyTextField(value);
  }
  if (value instanceof Uint8Array) {
    if (column.bytea) return byteaField(value);
    // Writing the bytes as text would store something else than SQLite holds: refuse instead.
    throw new TypeError(`${table}.${column.name} holds a BLOB in SQLite, but its PostgreSQL column is not BYTEA`);
  }
  throw new TypeError(`${table}.${column.name} holds a value SQLite does not store: ${typeof value}`);
}

/** One row as a line of COPY's text format: fields in the columns' order, tab-separated. */
function copyLine(row: readonly unknown[], columns: readonly CopyColumn[], table: string): string {
  let line = '';
  for (let i = 0; i < columns.length; i += 1) {
    if (i > 0) line += '\t';
    line += copyField(row[i], columns[i]!, table);
  }
  return `${line}\n`;
}

/** Lines gathered into chunks of about this many characters: few writes, and memory that stays flat. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The rows as COPY text, in chunks of about 64 Ki characters, read one by one from `rows` (a
 * statement's `iterate()`) as the consumer asks for them, so memory does not grow with the table.
 */
export function* copyTextChunks(rows: Iterable<readonly unknown[]>, columns: readonly CopyColumn[], table: string): Generator<string> {
  let chunk = '';
  let number = 0;
  for (const row of rows) {
    number += 1;
    try {
      chunk += copyLine(row, columns, table);
    } catch (err) {
      // Named by its place in the table and its first column (the id of every table but a few).
      throw new TypeError(`row ${number} (${columns[0]?.name ?? '?'} ${String(row[0])}): ${(err as Error).message}`, { cause: err });
    }
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}
