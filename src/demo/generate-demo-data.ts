import type { DemoDataOptions } from './demo-random.js';
import { generateVisibility } from './generate-visibility.js';
import { generateContent } from './generate-content.js';
import { generateWorkspaceProfile } from './generate-workspace-profile.js';

export type { DemoDataOptions } from './demo-random.js';

/** The sizes the first `npm start` uses: a few seconds to import. */
export const DEFAULT_DEMO_OPTIONS: DemoDataOptions = { seed: 42, prompts: 40, days: 120, answersPerDay: 2 };

/**
 * The whole demo as import lines, every area's records in an order the import accepts (each area
 * yields its own records; references may point forward). Areas add one line each.
 */
export function* generateDemoData(options: DemoDataOptions): Generator<string> {
  yield* generateVisibility(options);
  yield* generateContent(options);
  yield* generateWorkspaceProfile(options);
}
