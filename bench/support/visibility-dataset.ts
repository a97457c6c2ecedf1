import type { DatasetShape } from './prompt-dataset.js';

/**
 * The workspace of the visibility benchmarks: 500 prompts and 1,000,000 answers over the last 90
 * days, so a 90d range covers every answer (the largest rates computation and export there is).
 */
export const LARGE_WORKSPACE: DatasetShape = { snapshots: 1_000_000, prompts: 500, days: 90 };
