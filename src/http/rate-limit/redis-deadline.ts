/**
 * Waits for a Redis reply for at most `timeoutMs` of waiting on Redis (REDIS_COMMAND_TIMEOUT_MS),
 * not counting the time this process's event loop was too busy to read it.
 *
 * A timer cannot tell the two apart by itself: after a long synchronous stretch (a large answer
 * serialised, a burst of requests) the loop runs its due timers before it reads the sockets, so a
 * reply that arrived on time would be found timed out. Here a timer that fires late (the loop was
 * busy) decides nothing: the lateness is taken off the time waited, and the wait goes on for a
 * short slice, long enough for the loop to read what arrived meanwhile. Only a timer that fires on
 * time, with the loop free and still no reply, ends the wait. Under a loop that stays busy, the
 * wait still ends after ten times the timeout.
 */
export function withinRedisDeadline<T>(command: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const started = performance.now();
    const slice = Math.max(10, Math.round(timeoutMs / 5));
    let busyMs = 0;
    let timer: NodeJS.Timeout | undefined;
    const arm = (delayMs: number): void => {
      const due = performance.now() + delayMs;
      timer = setTimeout(() => {
        const now = performance.now();
        const late = Math.max(0, now - due);
        busyMs += late;
        const elapsed = now - started;
        if (late > slice && elapsed < timeoutMs * 10) {
          arm(slice);
          return;
        }
        const waited = elapsed - busyMs;
        if (waited < timeoutMs && elapsed < timeoutMs * 10) {
          arm(timeoutMs - waited);
          return;
        }
        reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
      }, delayMs);
    };
    arm(timeoutMs);
    command.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
