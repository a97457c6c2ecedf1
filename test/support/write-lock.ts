import Database from 'better-sqlite3';
import { writeLockHeldElsewhere } from '../../src/store/sqlite/database.js';
import { send, type ObservedResponse, type RequestSpec } from './http.js';

/**
 * Takes the database's write lock from a connection of its own and keeps it, as an import in
 * another process does for its whole file; `release` rolls back and closes.
 */
export function holdWriteLock(file: string): { release: () => void } {
  const importer = new Database(file);
  importer.exec('BEGIN IMMEDIATE');
  return {
    release: () => {
      if (importer.inTransaction) importer.exec('ROLLBACK');
      importer.close();
    },
  };
}

/** One request over real HTTP, with how long its answer took. */
export async function timedSend(baseUrl: string, spec: RequestSpec): Promise<ObservedResponse & { ms: number }> {
  const started = performance.now();
  const response = await send(baseUrl, spec);
  return { ...response, ms: performance.now() - started };
}

/** Watches the write lock from a connection of its own that never waits for it. */
export function writeLockProbe(file: string): { held: () => boolean; close: () => void } {
  const probe = new Database(file, { timeout: 0 });
  return { held: () => writeLockHeldElsewhere(probe), close: () => probe.close() };
}
