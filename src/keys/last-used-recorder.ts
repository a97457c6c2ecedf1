import type { Store } from '../store/index.js';

const MINUTE_MS = 60_000;

/**
 * Writes `last_used_at` at most once a minute per key: the in-memory map spares the write on hot
 * keys, and the conditional UPDATE keeps the rule when several processes share the file.
 */
export function createLastUsedRecorder(store: Store) {
  const lastWritten = new Map<string, number>();
  return (keyId: string, now: Date): void => {
    const nowMs = now.getTime();
    const previous = lastWritten.get(keyId);
    if (previous !== undefined && nowMs - previous < MINUTE_MS) return;
    if (lastWritten.size > 100_000) lastWritten.clear(); // bounded memory; a clear costs one write per key
    lastWritten.set(keyId, nowMs);
    store.apiKeys.touch(keyId, now.toISOString(), new Date(nowMs - MINUTE_MS).toISOString());
  };
}
