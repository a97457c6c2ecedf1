// Statements both databases run as written, word for word: the SQLite store
// (sqlite/service-settings.ts) and the PostgreSQL one (postgres/service-settings.ts) share them.

export const SERVICE_SETTING_SQL = {
  read: 'SELECT value FROM service_settings WHERE name = ?',
  /** Nothing when another instance stored the value first: the read after it returns theirs. */
  insertIfAbsent: 'INSERT INTO service_settings (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
} as const;
