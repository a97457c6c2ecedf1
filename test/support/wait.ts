/**
 * Polls `condition` every `intervalMs` (10 ms unless given) until it holds; fails naming `what`
 * after `timeoutMs`. A condition that asks a process starting up asks it less often: each poll
 * costs CPU on the cores the process needs to start.
 */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition', intervalMs = 10): Promise<void> {
  await valueWhen(condition, (holds) => holds, timeoutMs, what, intervalMs);
}

/** `until` for a value: calls `probe` until `holds` accepts what it answers, and answers that. */
export async function valueWhen<T>(probe: () => T | Promise<T>, holds: (value: T) => boolean, timeoutMs = 10_000, what = 'condition', intervalMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (holds(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Watches the event loop for `durationMs`: the longest it was late to run a 5 ms timer, in ms. */
export async function maxEventLoopLag(durationMs: number): Promise<number> {
  let maxLag = 0;
  let last = Date.now();
  const probe = setInterval(() => {
    const t = Date.now();
    maxLag = Math.max(maxLag, t - last - 5);
    last = t;
  }, 5);
  await new Promise((done) => setTimeout(done, durationMs));
  clearInterval(probe);
  return maxLag;
}
