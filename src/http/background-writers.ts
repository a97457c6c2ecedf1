import type { Store } from '../store/index.js';
import { LastUsedRecorder } from '../keys/last-used-recorder.js';
import { ApiRequestCounter } from '../workspace/api-request-counter.js';

/**
 * The writes an app keeps in memory and stores in the background, never making a request wait:
 * when each API key was last used, and how many requests each workspace made (see README,
 * "Importing data"). Made with the app (or by the process, which passes them to it) and finished
 * on shutdown, so what they hold is written before the database closes.
 */
export interface BackgroundWriters {
  keyUses: LastUsedRecorder;
  requestCounts: ApiRequestCounter;
}

export function createBackgroundWriters(store: Store): BackgroundWriters {
  return { keyUses: new LastUsedRecorder(store), requestCounts: new ApiRequestCounter(store) };
}

/** Shutdown: writes what each writer still holds, waiting a while for the lock; reports what could not be written. */
export async function finishBackgroundWriters(writers: BackgroundWriters, onError: (what: string, err: unknown) => void): Promise<void> {
  const finishing: Array<[string, { finish(): Promise<void> }]> = [
    ['API request counts', writers.requestCounts],
    ['key uses (last_used_at)', writers.keyUses],
  ];
  for (const [what, writer] of finishing) {
    try {
      await writer.finish();
    } catch (err) {
      onError(what, err);
    }
  }
}
