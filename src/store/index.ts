import type { Db } from './database.js';
import { createAccountStore } from './accounts.js';
import { createApiKeyStore } from './api-keys.js';
import { createContentMapStore } from './content-map.js';
import { createPromptStore } from './prompts.js';
import { createVisibilityAnalyticsStore } from './visibility-analytics.js';
import { createVisibilityOverviewStore } from './visibility-overview.js';
import { createCitedPageStore } from './visibility-cited-pages.js';
import { createAnswerStore } from './visibility-answers.js';
import { createWorkspaceProfileStore } from './workspace-profile.js';
import { createWebhookDeliveryStore } from './webhook-deliveries.js';

/** Every store area over one database; SQL lives only under src/store/. */
export function createStore(db: Db) {
  return {
    db,
    accounts: createAccountStore(db),
    apiKeys: createApiKeyStore(db),
    contentMap: createContentMapStore(db),
    prompts: createPromptStore(db),
    visibilityAnalytics: createVisibilityAnalyticsStore(db),
    visibilityOverview: createVisibilityOverviewStore(db),
    citedPages: createCitedPageStore(db),
    answers: createAnswerStore(db),
    workspaceProfile: createWorkspaceProfileStore(db),
    webhookDeliveries: createWebhookDeliveryStore(db),
  };
}

export type Store = ReturnType<typeof createStore>;
