import type { Db } from './database.js';
import { createAccountStore } from './accounts.js';
import { createApiKeyStore } from './api-keys.js';
import { createContentMapStore } from './content-map.js';
import { createContentStore } from './content.js';
import { createEventFeedStore } from './event-feed.js';
import { createDataVersionStore } from './data-versions.js';
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

/** Every store area over one database; SQL lives only under src/store/. */
export function createStore(db: Db) {
  return {
    db,
    accounts: createAccountStore(db),
    apiKeys: createApiKeyStore(db),
    contentMap: createContentMapStore(db),
    content: createContentStore(db),
    eventFeed: createEventFeedStore(db),
    dataVersions: createDataVersionStore(db),
    iq: createIqStore(db),
    memberTokens: createMemberTokenStore(db),
    prompts: createPromptStore(db),
    visibilityAnalytics: createVisibilityAnalyticsStore(db),
    visibilityOverview: createVisibilityOverviewStore(db),
    citedPages: createCitedPageStore(db),
    answers: createAnswerStore(db),
    webhookDeliveries: createWebhookDeliveryStore(db),
    webhooks: createWebhookStore(db),
    workspaceProfile: createWorkspaceProfileStore(db),
  };
}

export type Store = ReturnType<typeof createStore>;
