/** Polls `condition` every 10 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
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
