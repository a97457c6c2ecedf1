import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../store/index.js';
import { importLines } from '../import/import-ndjson.js';
import { pipelineStory, type Step } from './story.js';

export interface SimulationProgress {
  caption: string;
  /** Webhook events the step wrote to the outbox (one per status or stage change). */
  events: number;
}

export interface SimulationSummary {
  changes: number;
  events: number;
}

/**
 * Moves freshly created records of the workspace through their lifecycle, one status or stage change
 * every `intervalMs`, through the import (the same write path as real data, so the same events and
 * deliveries follow). Stops after `count` changes, or when `signal` aborts.
 *
 * The simulator works on records it created itself: an import line carries a whole record, so
 * rewriting someone else's record to change its status would also rewrite every field it got wrong.
 */
export async function simulate(
  store: Store,
  options: {
    workspaceId: string;
    intervalMs: number;
    count?: number | undefined;
    signal?: AbortSignal | undefined;
    onStep?: (progress: SimulationProgress) => void;
    clock?: () => Date;
    random?: () => number;
  },
): Promise<SimulationSummary> {
  const clock = options.clock ?? (() => new Date());
  const summary: SimulationSummary = { changes: 0, events: 0 };
  const limit = options.count ?? Number.POSITIVE_INFINITY;
  const apply = async (step: Step): Promise<number> => {
    const result = await importLines(store, options.workspaceId, step.records.map((r) => JSON.stringify(r)));
    options.onStep?.({ caption: step.caption, events: result.events });
    return result.events;
  };
  while (summary.changes < limit && !options.signal?.aborted) {
    let first = true;
    for (const step of pipelineStory(clock, options.random)) {
      if (summary.changes >= limit || options.signal?.aborted) break;
      const events = await apply(step);
      summary.events += events;
      // The step that creates a story's records changes nothing yet; it is not worth a wait.
      if (first) {
        first = false;
        continue;
      }
      summary.changes += 1;
      if (summary.changes < limit) {
        try {
          await sleep(options.intervalMs, undefined, { signal: options.signal });
        } catch {
          break;
        }
      }
    }
  }
  return summary;
}
