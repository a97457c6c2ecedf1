import type { Db } from './database.js';
import type { ServiceSettingStore } from '../interfaces/service-settings.js';
import { promised } from './promised.js';
import { SERVICE_SETTING_SQL } from '../service-setting-statements.js';

function createSyncServiceSettingStore(db: Db) {
  const insert = db.prepare(SERVICE_SETTING_SQL.insertIfAbsent);
  const read = db.prepare(SERVICE_SETTING_SQL.read).pluck();
  return {
    keepFirst: (name: string, candidate: string, now: Date): string => {
      // Read first: once the value exists, a start never waits for the write lock (an import may hold it).
      const stored = read.get(name) as string | undefined;
      if (stored !== undefined) return stored;
      insert.run(name, candidate, now.toISOString());
      return read.get(name) as string;
    },
  };
}

export function createServiceSettingStore(db: Db): ServiceSettingStore {
  return promised(createSyncServiceSettingStore(db));
}
