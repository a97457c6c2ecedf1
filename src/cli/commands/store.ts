import type { Command } from '../command.js';
import { CliError } from '../args.js';
import { parseStoreAddress } from '../../store/store-address.js';
import type { StoreCopySummary } from '../../store/postgres/copy-from-sqlite.js';

/** The PostgreSQL URL of `--to`; anything else (a file path, another scheme) is refused, naming only the scheme. */
function postgresUrl(to: string): string {
  let address;
  try {
    address = parseStoreAddress(to);
  } catch (err) {
    throw new CliError(`--to: ${(err as Error).message}`);
  }
  if (address.kind !== 'postgres') throw new CliError('--to must be a PostgreSQL URL: postgres://user:password@host:5432/database');
  return address.url;
}

export const storeCopy: Command = {
  name: 'store copy',
  usage: 'store copy --from FILE --to postgres://USER:PASSWORD@HOST:PORT/DATABASE   (every table of the SQLite FILE into an empty PostgreSQL database, in one transaction)',
  async run({ options }) {
    const from = options.required('from');
    const to = postgresUrl(options.required('to'));
    // Loaded here: the other commands never need the PostgreSQL client.
    const { copySqliteToPostgres, StoreCopyError } = await import('../../store/postgres/copy-from-sqlite.js');
    try {
      return await copySqliteToPostgres(from, to);
    } catch (err) {
      if (err instanceof StoreCopyError) throw new CliError(err.message);
      throw err;
    }
  },
  text: (r: StoreCopySummary) => {
    const width = Math.max(5, ...r.tables.map((t) => t.table.length));
    const line = (name: string, rows: number) => `  ${name.padEnd(width)}  ${String(rows).padStart(10)}`;
    return [`copied ${r.total} rows into PostgreSQL:`, ...r.tables.map((t) => line(t.table, t.rows)), line('total', r.total)].join('\n');
  },
};
