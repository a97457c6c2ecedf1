import type { Store } from '../interfaces/store.js';
import { addressWithoutPassword } from '../store-address.js';
import { createPostgresAccountStore } from './accounts.js';
import { createPostgresApiKeyStore } from './api-keys.js';
import { createPostgresConsoleSessionStore } from './console-sessions.js';
import { createPostgresAuditLogStore } from './audit-log.js';
import { pinnedClient, withPinnedClient } from './pinned-transaction.js';
import { inTransaction } from './query.js';
import { createPostgresContentMapStore } from './content-map.js';
import { createPostgresContentStore } from './content.js';
import { createPostgresDataVersionStore } from './data-versions.js';
import { createPostgresServiceSettingStore } from './service-settings.js';
import { createPostgresEventFeedStore } from './event-feed.js';
import { createPostgresImportStore } from './import/import-store.js';
import { createPostgresIdempotencyStore } from './idempotency.js';
import { createPostgresIqStore } from './iq.js';
import { createPostgresMemberTokenStore } from './member-tokens.js';
import { applyPostgresMigrations } from './migrate.js';
import { createPostgresPool, pingPostgres, type PostgresPool, type PostgresPoolOptions } from './pool.js';
import { createPostgresPromptStore } from './prompts.js';
import { createPostgresVisibilityAnalyticsStore } from './visibility-analytics.js';
import { createPostgresAnswerStore } from './visibility-answers.js';
import { createPostgresCitedPageStore } from './visibility-cited-pages.js';
import { createPostgresVisibilityOverviewStore } from './visibility-overview.js';
import { createPostgresWebhookDeliveryStore } from './webhook-deliveries.js';
import { createPostgresWebhookStore } from './webhooks.js';
import { createPostgresWorkspaceProfileStore } from './workspace-profile.js';

/** The store over one PostgreSQL database. `pool` is there for tests and benchmarks that look into the database itself. */
export interface PostgresStore extends Store {
  kind: 'postgres';
  readonly pool: PostgresPool;
}

/**
 * PostgreSQL could not be reached, or refused the connection, when the store opened: the message
 * names the server (never the password) and the cause, for the command line to print as one line.
 */
export class PostgresUnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    super(`cannot reach PostgreSQL at ${addressWithoutPassword(url)}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'PostgresUnreachableError';
  }
}

/** Every store area over one pool of connections. */
function createPostgresStore(pool: PostgresPool): PostgresStore {
  return {
    kind: 'postgres',
    pool,
    accounts: createPostgresAccountStore(pool),
    apiKeys: createPostgresApiKeyStore(pool),
    consoleSessions: createPostgresConsoleSessionStore(pool),
    auditLog: createPostgresAuditLogStore(pool),
    contentMap: createPostgresContentMapStore(pool),
    content: createPostgresContentStore(pool),
    eventFeed: createPostgresEventFeedStore(pool),
    idempotency: createPostgresIdempotencyStore(pool),
    dataVersions: createPostgresDataVersionStore(pool),
    settings: createPostgresServiceSettingStore(pool),
    imports: createPostgresImportStore(pool),
    iq: createPostgresIqStore(pool),
    memberTokens: createPostgresMemberTokenStore(pool),
    prompts: createPostgresPromptStore(pool),
    visibilityAnalytics: createPostgresVisibilityAnalyticsStore(pool),
    visibilityOverview: createPostgresVisibilityOverviewStore(pool),
    citedPages: createPostgresCitedPageStore(pool),
    answers: createPostgresAnswerStore(pool),
    webhookDeliveries: createPostgresWebhookDeliveryStore(pool),
    webhooks: createPostgresWebhookStore(pool),
    workspaceProfile: createPostgresWorkspaceProfileStore(pool),
    // Inside a unit already open, its statements already go to the unit's connection.
    atomically: (work) => (pinnedClient(pool) ? work() : inTransaction(pool, (client) => withPinnedClient(pool, client, work))),
    ping: () => pingPostgres(pool),
    close: () => pool.end(),
  };
}

/**
 * Connects to the database at `url`, applies the migrations it lacks (under the advisory lock of
 * `migrate.ts`, so instances starting together apply each file once) and returns the store.
 * An unreachable server rejects with PostgresUnreachableError; the pool is closed.
 */
export async function openPostgresStore(url: string, poolOptions: PostgresPoolOptions = {}): Promise<PostgresStore> {
  const pool = createPostgresPool(url, poolOptions);
  try {
    await pingPostgres(pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new PostgresUnreachableError(url, err);
  }
  try {
    await applyPostgresMigrations(pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  return createPostgresStore(pool);
}
