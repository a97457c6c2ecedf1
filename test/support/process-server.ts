import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { openSqliteStore } from '../../src/store/index.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

/**
 * The service as `serve` runs it (`startServer` over `loadConfig`, with the store `serve` opens),
 * configured by environment variables the way an operator would, on an ephemeral loopback port
 * over a fresh SQLite file; `close()` stops it and removes the file.
 */
export async function startConfiguredServer(env: Record<string, string> = {}): Promise<RunningServer & { store: SqliteStore }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-serve-'));
  const config = loadConfig({ ...env, DATABASE_PATH: path.join(dir, 'serve.db'), PORT: '0', HOST: '127.0.0.1' });
  const store = openSqliteStore(config.databasePath, { serving: true });
  const running = await startServer(config, { logger: pino({ level: 'silent' }), store });
  return {
    ...running,
    store,
    close: async () => {
      running.server.closeAllConnections();
      await running.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
