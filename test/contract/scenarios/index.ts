import type { OperationScenario } from './types.js';
import { adminScenarios } from './admin.js';
import { accountScenarios } from './account.js';
import { contentMapScenarios } from './content-map.js';
import { contentScenarios } from './content.js';
import { eventFeedScenarios } from './event-feeds.js';
import { iqScenarios } from './iq.js';
import { visibilityPromptScenarios } from './visibility-prompts.js';
import { workspaceScenarios } from './workspace.js';
import { visibilityScenarios } from './visibility.js';

/** Every area's scenarios; add one spread line per area file. */
export const scenarios: OperationScenario[] = [
  ...adminScenarios,
  ...accountScenarios,
  ...contentMapScenarios,
  ...contentScenarios,
  ...iqScenarios,
  ...visibilityPromptScenarios,
  ...workspaceScenarios,
  ...visibilityScenarios,
  ...eventFeedScenarios,
];
