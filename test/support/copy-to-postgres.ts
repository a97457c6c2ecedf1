import { copySqliteToPostgres } from '../../src/store/postgres/copy-from-sqlite.js';
import { createPostgresDatabase } from './postgres.js';

/**
 * A new database of the run's PostgreSQL cluster holding a copy of the SQLite file, made as
 * `workspace-api store copy` makes it (migrated, every table); its URL. Close the file's store
 * first or not: the copy reads one snapshot of it either way.
 */
export async function copyIntoNewPostgres(sqliteFile: string): Promise<string> {
  const url = await createPostgresDatabase('wsapi_copy');
  await copySqliteToPostgres(sqliteFile, url);
  return url;
}
