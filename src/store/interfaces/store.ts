import type { AccountStore } from './accounts.js';
import type { AuditLogStore } from './audit-log.js';
import type { ApiKeyStore } from './api-keys.js';
import type { ConsoleSessionStore } from './console-sessions.js';
import type { ContentMapStore } from './content-map.js';
import type { ContentStore } from './content.js';
import type { DataVersionStore } from './data-versions.js';
import type { ServiceSettingStore } from './service-settings.js';
import type { EventFeedStore } from './event-feed.js';
import type { IdempotencyStore } from './idempotency.js';
import type { ImportStore } from './imports.js';
import type { IqStore } from './iq.js';
import type { MemberTokenStore } from './member-tokens.js';
import type { PromptStore } from './prompts.js';
import type { VisibilityAnalyticsStore } from './visibility-analytics.js';
import type { AnswerStore } from './visibility-answers.js';
import type { CitedPageStore } from './visibility-cited-pages.js';
import type { VisibilityOverviewStore } from './visibility-overview.js';
import type { WebhookDeliveryStore } from './webhook-deliveries.js';
import type { WebhookStore } from './webhooks.js';
import type { WorkspaceProfileStore } from './workspace-profile.js';

/**
 * Every store area over one database, whichever it is. The service's code reaches the data only
 * through these methods, and awaits each of them: a write not awaited may still be running (on a
 * network database) when the next one starts.
 */
export interface Store {
  kind: 'sqlite' | 'postgres';
  accounts: AccountStore;
  apiKeys: ApiKeyStore;
  consoleSessions: ConsoleSessionStore;
  auditLog: AuditLogStore;
  contentMap: ContentMapStore;
  content: ContentStore;
  eventFeed: EventFeedStore;
  dataVersions: DataVersionStore;
  idempotency: IdempotencyStore;
  settings: ServiceSettingStore;
  imports: ImportStore;
  iq: IqStore;
  memberTokens: MemberTokenStore;
  prompts: PromptStore;
  visibilityAnalytics: VisibilityAnalyticsStore;
  visibilityOverview: VisibilityOverviewStore;
  citedPages: CitedPageStore;
  answers: AnswerStore;
  webhookDeliveries: WebhookDeliveryStore;
  webhooks: WebhookStore;
  workspaceProfile: WorkspaceProfileStore;
  /**
   * Runs `work` in one transaction: every call it makes of this store commits when it resolves, or
   * rolls back when it throws (a change and the audit entries that record it). Called inside a
   * unit already open (an idempotent write's), it joins that one. Keep it short: on SQLite it holds
   * the write lock, and other requests' calls of the store wait for it.
   */
  atomically<T>(work: () => Promise<T>): Promise<T>;
  /** Readiness: rejects when the database does not answer. */
  ping(): Promise<void>;
  /** Closes the database; the store answers nothing after it. */
  close(): Promise<void>;
}
