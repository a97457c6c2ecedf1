/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableWait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A signal that aborts when the caller's does or after `ms` (with `onTimeout()` as its reason),
 * and `done()` to stop the timer and let go of the caller's signal.
 */
export function attemptSignal(ms: number, caller: AbortSignal | undefined, onTimeout: () => Error): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const follow = (): void => controller.abort(caller!.reason);
  if (caller?.aborted) follow();
  else caller?.addEventListener('abort', follow, { once: true });
  const timer = setTimeout(() => controller.abort(onTimeout()), ms);
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', follow);
    },
  };
}
