import type { ServiceSettingStore } from '../interfaces/service-settings.js';
import { run, value, type Queryable } from './query.js';
import { SERVICE_SETTING_SQL } from '../service-setting-statements.js';

/** Service-wide settings on PostgreSQL (`../interfaces/service-settings.ts`). */
export function createPostgresServiceSettingStore(db: Queryable): ServiceSettingStore {
  return {
    async keepFirst(name: string, candidate: string, now: Date): Promise<string> {
      const stored = await value<string>(db, SERVICE_SETTING_SQL.read, [name]);
      if (stored !== undefined) return stored;
      // Two statements, each committed on its own: an instance whose insert meets another's waits
      // for that one to commit, inserts nothing, and then reads the value that was committed.
      await run(db, SERVICE_SETTING_SQL.insertIfAbsent, [name, candidate, now.toISOString()]);
      return (await value<string>(db, SERVICE_SETTING_SQL.read, [name]))!;
    },
  };
}
