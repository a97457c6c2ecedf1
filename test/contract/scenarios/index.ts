import type { OperationScenario } from './types.js';
import { accountScenarios } from './account.js';

/** Every area's scenarios; add one spread line per area file. */
export const scenarios: OperationScenario[] = [
  ...accountScenarios,
];
