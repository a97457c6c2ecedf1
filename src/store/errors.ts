/**
 * Thrown by a store when a write cannot take the lock it needs in time: another writer (an import
 * in another process) holds it longer than the caller may wait. Nothing was written; the same call
 * may succeed later. The HTTP layer answers it with 503 (code 5030) and Retry-After.
 */
export class DatabaseBusyError extends Error {
  constructor(message = 'the database is locked by another writer') {
    super(message);
    this.name = 'DatabaseBusyError';
  }
}
