import type { Store } from '../interfaces/store.js';
import { openDatabase, pingDatabase, SERVER_WRITE_WAIT_MS, setBusyTimeout, type Db } from './database.js';
import { createAccountStore } from './accounts.js';
import { createApiKeyStore } from './api-keys.js';
import { createConsoleSessionStore } from './console-sessions.js';
import { createAuditLogStore } from './audit-log.js';
import { createContentMapStore } from './content-map.js';
import { createContentStore } from './content.js';
import { createEventFeedStore } from './event-feed.js';
import { createDataVersionStore } from './data-versions.js';
import { createServiceSettingStore } from './service-settings.js';
import { createImportStore } from './import/import-run.js';
import { createIqStore } from './iq.js';
import { createMemberTokenStore } from './member-tokens.js';
import { createPromptStore } from './prompts.js';
import { createVisibilityAnalyticsStore } from './visibility-analytics.js';
import { createVisibilityOverviewStore } from './visibility-overview.js';
import { createCitedPageStore } from './visibility-cited-pages.js';
import { createAnswerStore } from './visibility-answers.js';
import { createWebhookDeliveryStore } from './webhook-deliveries.js';
import { createWebhookStore } from './webhooks.js';
import { createWorkspaceProfileStore } from './workspace-profile.js';
import { createIdempotencyStore } from './idempotency.js';
import { createUnitOfWork } from './unit-of-work.js';

/**
 * The store over one SQLite file. `db` is there for tests and benchmarks that look into the file
 * itself; the service's code takes a `Store` and never touches it.
 */
export interface SqliteStore extends Store {
  kind: 'sqlite';
  readonly db: Db;
}

export interface SqliteStoreOptions {
  /**
   * The store serves HTTP requests: a write waits at most 50 ms for a lock another process holds
   * (an import), then rejects with DatabaseBusyError, answered 503; without it, as long as a
   * command of the command line may (5 s).
   */
  serving?: boolean;
}

/** Every store area over one better-sqlite3 connection. */
function createSqliteStore(db: Db): SqliteStore {
  // Every area waits for a unit of work of another request (an idempotent write) to end.
  const unit = createUnitOfWork(db);
  const g = unit.guard.bind(unit);
  return {
    kind: 'sqlite',
    db,
    idempotency: g(createIdempotencyStore(db, unit)),
    accounts: g(createAccountStore(db)),
    apiKeys: g(createApiKeyStore(db)),
    consoleSessions: g(createConsoleSessionStore(db)),
    auditLog: g(createAuditLogStore(db)),
    contentMap: g(createContentMapStore(db)),
    content: g(createContentStore(db)),
    eventFeed: g(createEventFeedStore(db)),
    dataVersions: g(createDataVersionStore(db)),
    settings: g(createServiceSettingStore(db)),
    imports: g(createImportStore(db)),
    iq: g(createIqStore(db)),
    memberTokens: g(createMemberTokenStore(db)),
    prompts: g(createPromptStore(db)),
    visibilityAnalytics: g(createVisibilityAnalyticsStore(db)),
    visibilityOverview: g(createVisibilityOverviewStore(db)),
    citedPages: g(createCitedPageStore(db)),
    answers: g(createAnswerStore(db)),
    webhookDeliveries: g(createWebhookDeliveryStore(db)),
    webhooks: g(createWebhookStore(db)),
    workspaceProfile: g(createWorkspaceProfileStore(db)),
    atomically: (work) => unit.run(work),
    ping: async () => pingDatabase(db),
    close: async () => {
      if (db.open) db.close();
    },
  };
}

/** Opens (creating and migrating if needed) the SQLite file and the store over it. */
export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): SqliteStore {
  const db = openDatabase(file);
  // The server's writes never wait long for a lock another process holds (an import): reads do
  // not need it (WAL), background writes retry later, and a request's write answers 503.
  if (options.serving) setBusyTimeout(db, SERVER_WRITE_WAIT_MS);
  return createSqliteStore(db);
}
