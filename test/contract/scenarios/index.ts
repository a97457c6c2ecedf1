import type { ScenarioArea } from '../framework/matrix-coverage.js';
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

/** Every area's scenarios, by the file that holds them; add one line per area file. */
export const scenarioAreas: ScenarioArea[] = [
  { file: 'admin.ts', scenarios: adminScenarios },
  { file: 'account.ts', scenarios: accountScenarios },
  { file: 'content-map.ts', scenarios: contentMapScenarios },
  { file: 'content.ts', scenarios: contentScenarios },
  { file: 'iq.ts', scenarios: iqScenarios },
  { file: 'visibility-prompts.ts', scenarios: visibilityPromptScenarios },
  { file: 'workspace.ts', scenarios: workspaceScenarios },
  { file: 'visibility.ts', scenarios: visibilityScenarios },
  { file: 'event-feeds.ts', scenarios: eventFeedScenarios },
];

export const scenarios: OperationScenario[] = scenarioAreas.flatMap((area) => area.scenarios);
