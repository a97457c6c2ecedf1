import type pg from 'pg';
import { isDatabaseUnreachable, OutcomeUnknownError } from '../errors.js';
import { nextSavepoint, pinnedClient } from './pinned-transaction.js';
import type { PostgresPool } from './pool.js';

/** Where a statement runs: the pool (any free connection) or one connection inside a transaction. */
export type Queryable = PostgresPool | pg.PoolClient;

/**
 * `?` parameters in order, or `@name` parameters by name, as better-sqlite3 binds them: a list, or
 * any object (a row interface has no index signature) whose properties are the names.
 */
export type SqlParams = readonly unknown[] | object;

/** SQL with `$n` placeholders, and for each `$n` the `?` index or `@name` it came from. */
interface CompiledSql {
  text: string;
  /** Per `$n` (n - 1): a number for the n-th `?`, a string for `@name` (a name used twice binds one `$n`). */
  sources: Array<number | string>;
  style: 'none' | 'positional' | 'named';
}

/** Statement texts are constants of the store modules, so the cache stays as small as their number. */
const compiled = new Map<string, CompiledSql>();

const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_]/;

/** The index just past a quoted run that starts at `start` (the opening quote), doubled quotes kept inside. */
function skipQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const ch = sql[i];
    if (backslashEscapes && ch === '\\') i += 2;
    else if (ch === quote && sql[i + 1] === quote) i += 2;
    else if (ch === quote) return i + 1;
    else i += 1;
  }
  return i;
}

/** The index just past what starts at `i` when it is a literal, a quoted name or a comment; `i` otherwise. */
function skipInert(sql: string, i: number): number {
  const ch = sql[i];
  const next = sql[i + 1];
  if (ch === "'") {
    // E'…' is PostgreSQL's escape string: a backslash escapes the quote.
    const escape = i > 0 && /[Ee]/.test(sql[i - 1]!) && !IDENTIFIER_PART.test(sql[i - 2] ?? ' ');
    return skipQuoted(sql, i, "'", escape);
  }
  if (ch === '"') return skipQuoted(sql, i, '"', false);
  if (ch === '-' && next === '-') {
    const end = sql.indexOf('\n', i);
    return end === -1 ? sql.length : end + 1;
  }
  if (ch === '/' && next === '*') {
    const end = sql.indexOf('*/', i + 2);
    return end === -1 ? sql.length : end + 2;
  }
  if (ch === '$') {
    // A dollar-quoted body ($$…$$, $tag$…$tag$), never a $n placeholder.
    const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
    if (tag) {
      const end = sql.indexOf(tag[0], i + tag[0].length);
      return end === -1 ? sql.length : end + tag[0].length;
    }
  }
  return i;
}

/**
 * Rewrites SQLite-style parameters into PostgreSQL's `$n`: each `?` becomes the next `$n`, each
 * distinct `@name` one `$n`. Text in string literals, quoted names, comments and dollar-quoted
 * bodies is left alone, as is `@` not followed by a name (PostgreSQL's `@>` and `<@` operators).
 * A statement takes one style; one that mixes them, or writes its own `$n`, is refused.
 */
export function compileSql(sql: string): CompiledSql {
  const cached = compiled.get(sql);
  if (cached) return cached;
  let text = '';
  const sources: Array<number | string> = [];
  const named = new Map<string, number>();
  let positional = 0;
  let i = 0;
  while (i < sql.length) {
    const skipped = skipInert(sql, i);
    if (skipped !== i) {
      text += sql.slice(i, skipped);
      i = skipped;
      continue;
    }
    const ch = sql[i]!;
    const afterName = IDENTIFIER_PART.test(sql[i - 1] ?? ' ');
    if (ch === '?') {
      sources.push(positional++);
      text += `$${sources.length}`;
      i += 1;
    } else if (ch === '@' && IDENTIFIER_START.test(sql[i + 1] ?? '') && !afterName) {
      let end = i + 1;
      while (end < sql.length && IDENTIFIER_PART.test(sql[end]!)) end += 1;
      const name = sql.slice(i + 1, end);
      let n = named.get(name);
      if (n === undefined) {
        sources.push(name);
        n = sources.length;
        named.set(name, n);
      }
      text += `$${n}`;
      i = end;
    } else if (ch === '$' && /\d/.test(sql[i + 1] ?? '') && !afterName) {
      throw new Error(`SQL with its own $n placeholders is not compiled; write ? or @name: ${sql}`);
    } else {
      text += ch;
      i += 1;
    }
  }
  if (positional > 0 && named.size > 0) throw new Error(`SQL mixes ? and @name parameters: ${sql}`);
  const result: CompiledSql = { text, sources, style: positional > 0 ? 'positional' : named.size > 0 ? 'named' : 'none' };
  compiled.set(sql, result);
  return result;
}

/** The `$n` values of a compiled statement, refusing missing or surplus ones as better-sqlite3 does. */
function bind(statement: CompiledSql, params: SqlParams | undefined, sql: string): unknown[] {
  if (params === undefined || (Array.isArray(params) && params.length === 0)) {
    if (statement.sources.length > 0) throw new Error(`SQL expects parameters and got none: ${sql}`);
    return [];
  }
  if (Array.isArray(params)) {
    if (statement.style === 'named') throw new Error(`SQL takes @name parameters, got a list: ${sql}`);
    if (params.length !== statement.sources.length) {
      throw new Error(`SQL takes ${statement.sources.length} ? parameters, got ${params.length}: ${sql}`);
    }
    return [...(params as unknown[])];
  }
  if (statement.style === 'positional') throw new Error(`SQL takes ? parameters, got named ones: ${sql}`);
  const byName = params as Readonly<Record<string, unknown>>;
  return statement.sources.map((name) => {
    const value = byName[name as string];
    if (value === undefined) throw new Error(`missing named parameter @${String(name)}: ${sql}`);
    return value;
  });
}

async function execute(on: Queryable, sql: string, params: SqlParams | undefined, rowMode?: 'array'): Promise<pg.QueryResult> {
  const statement = compileSql(sql);
  const values = bind(statement, params, sql);
  return (pinnedClient(on) ?? on).query({ text: statement.text, values, ...(rowMode ? { rowMode } : {}) });
}

/** Every row (better-sqlite3's `all`). */
export async function rows<T>(on: Queryable, sql: string, params?: SqlParams): Promise<T[]> {
  return (await execute(on, sql, params)).rows as T[];
}

/** The first row, or undefined when there is none (`get`). */
export async function row<T>(on: Queryable, sql: string, params?: SqlParams): Promise<T | undefined> {
  return (await execute(on, sql, params)).rows[0] as T | undefined;
}

/** The first column of the first row, or undefined when there is no row (`pluck().get()`). */
export async function value<T>(on: Queryable, sql: string, params?: SqlParams): Promise<T | undefined> {
  const first = (await execute(on, sql, params, 'array')).rows[0] as unknown[] | undefined;
  return first?.[0] as T | undefined;
}

/** Runs a statement; how many rows it inserted, updated or deleted (`run().changes`). */
export async function run(on: Queryable, sql: string, params?: SqlParams): Promise<number> {
  return (await execute(on, sql, params)).rowCount ?? 0;
}

/**
 * Runs `work` in a transaction on `client`: committed when it resolves, rolled back when it throws
 * (the error is rethrown, whatever the rollback does). For a connection the caller holds for more
 * than one transaction (the migration runner keeps its lock on it).
 */
export async function inTransactionOn<T>(client: pg.PoolClient, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  let result: T;
  try {
    result = await work(client);
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
  try {
    await client.query('COMMIT');
  } catch (err) {
    // The COMMIT may have taken effect before the connection broke: nobody can say it did not.
    if (isDatabaseUnreachable(err)) throw new OutcomeUnknownError(err);
    throw err;
  }
  return result;
}

/** Runs `work` in a savepoint of the unit of work's transaction on `client` (`pinned-transaction.ts`). */
async function inSavepoint<T>(client: pg.PoolClient, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const name = nextSavepoint();
  await client.query(`SAVEPOINT ${name}`);
  try {
    const result = await work(client);
    await client.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (err) {
    await client.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
    throw err;
  }
}

/**
 * Runs `work` in a transaction on one connection of the pool: committed when it resolves, rolled
 * back when it throws (the error is rethrown). A connection that failed is discarded rather than
 * given back in an unknown state (a broken one would fail its next borrower). Inside a unit of
 * work (`pinned-transaction.ts`) it is a savepoint of the unit's transaction.
 */
export async function inTransaction<T>(pool: PostgresPool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const pinned = pinnedClient(pool);
  if (pinned) return inSavepoint(pinned, work);
  const client = await pool.connect();
  try {
    const result = await inTransactionOn(client, work);
    client.release();
    return result;
  } catch (err) {
    client.release(await connectionFailure(client));
    throw err;
  }
}

/** Undefined when `client` still answers (give it back to the pool), else the error that says it does not (discard it). */
async function connectionFailure(client: pg.PoolClient): Promise<Error | undefined> {
  try {
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}
