/** Where the service keeps its data: a SQLite file, or a PostgreSQL database. */
export type StoreAddress = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** `scheme://`: anything written this way is a URL, never a file name. */
const URL_LIKE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
const POSTGRES_SCHEMES = new Set(['postgres', 'postgresql']);

/**
 * Reads a database address (`DATABASE_URL`, else `DATABASE_PATH`: `src/config.ts`):
 * `postgres://…` or `postgresql://…` is a PostgreSQL database, any other URL (`mysql://…`,
 * `sqlite://…`) is refused, and anything else is a SQLite file path (`data/workspace.db`,
 * `:memory:`). Error messages name the scheme only, never the rest of a URL, which may hold a
 * password.
 */
export function parseStoreAddress(text: string): StoreAddress {
  const address = text.trim();
  if (address === '') throw new StoreAddressError('the database address is empty: set DATABASE_URL (postgres://…) or DATABASE_PATH (a SQLite file)');
  const scheme = URL_LIKE.exec(address)?.[1];
  if (scheme === undefined) return { kind: 'sqlite', file: address };
  if (!POSTGRES_SCHEMES.has(scheme.toLowerCase())) {
    throw new StoreAddressError(
      `unsupported database address ${scheme}://…: use postgres:// or postgresql:// for PostgreSQL, or a file path for SQLite`,
    );
  }
  try {
    new URL(address);
  } catch {
    throw new StoreAddressError(`the database address ${scheme}://… is not a valid URL: postgres://user:password@host:5432/database`);
  }
  return { kind: 'postgres', url: address };
}

/** A database address that is neither a PostgreSQL URL nor a file path: the message says what to write. */
export class StoreAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreAddressError';
  }
}

/** The address to show people (logs, messages): a URL's password replaced by `***`. */
export function addressWithoutPassword(address: string): string {
  if (!URL_LIKE.test(address)) return address;
  try {
    const parsed = new URL(address);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return `${URL_LIKE.exec(address)?.[1]}://…`;
  }
}
