import pg from 'pg';

export type PostgresPool = pg.Pool;

/** PostgreSQL's type ids of the results that node-postgres returns as strings by default. */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * BIGINT (`count(*)`, integer columns, `sum` of integers cast back) as a JS number, as
 * better-sqlite3 returns SQLite's integers. A value past 2^53 would come back wrong, so it is
 * refused rather than rounded; the schema's integers (epoch milliseconds, counts) stay far below.
 */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`PostgreSQL returned ${text}, past the largest exact JS integer`);
  return n;
}

/**
 * Parsers of this pool's connections only (never pg's global ones, which every other pool and
 * library in the process shares): BIGINT and NUMERIC (`sum` of a BIGINT column, `avg`) read as
 * numbers, so a row from PostgreSQL is shaped exactly like the same row from SQLite.
 */
function rowTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8_OID, 'text', parseInt8);
  types.setTypeParser(NUMERIC_OID, 'text', Number.parseFloat);
  return types;
}

/**
 * How long a statement waits for a connection (a new one, or a free one of the pool) before it
 * fails as unreachable (answered 503), unless set: a server that drops packets must not hold
 * requests forever.
 */
const CONNECT_TIMEOUT_MS = 5_000;

export interface PostgresPoolOptions {
  /** Connections at most (node-postgres's default: 10; `DATABASE_POOL_MAX`). */
  max?: number;
  /** A connection idle this long is closed; 0 keeps it (node-postgres's default: 10 s; `DATABASE_POOL_IDLE_TIMEOUT_MS`). */
  idleTimeoutMs?: number;
  /** See CONNECT_TIMEOUT_MS (`DATABASE_POOL_CONNECT_TIMEOUT_MS`). */
  connectTimeoutMs?: number;
  /**
   * Told when an idle connection breaks (the server restarted, the network dropped it). The pool
   * has already discarded it and the next query opens a new one; without a listener, node-postgres
   * would throw the error out of the event loop and end the process.
   */
  onIdleError?: (err: Error) => void;
}

/** A pool of connections to the database at `url` (`postgres://user:password@host:port/database`). */
export function createPostgresPool(url: string, options: PostgresPoolOptions = {}): PostgresPool {
  const pool = new pg.Pool({
    connectionString: url,
    types: rowTypes(),
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    ...(options.max === undefined ? {} : { max: options.max }),
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMillis: options.idleTimeoutMs }),
  });
  const onError = options.onIdleError ?? (() => undefined);
  pool.on('error', onError);
  // A connection held between statements (an import's transaction, a claim) that breaks while
  // its holder awaits something else would throw its error out of the event loop and end the
  // process: its holder learns of it from the next statement, which fails, and the pool drops it.
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

/** Readiness: rejects when the database does not answer. */
export async function pingPostgres(pool: PostgresPool): Promise<void> {
  await pool.query('SELECT 1');
}
