import pg from 'pg';

/** The channel `enqueueEventsOn` (`outbox.ts`) notifies when its transaction adds deliveries. */
export const OUTBOX_CHANNEL = 'webhook_outbox';

/** How long a broken listening connection waits before it connects again. */
const RECONNECT_MS = 1_000;

/**
 * Listens on its own connection (a pool's connections come and go; LISTEN lasts as long as the
 * session): `onEnqueued` runs for each notification, which PostgreSQL sends only when the
 * enqueuing transaction commits. A lost connection is opened again after a second, and
 * `onEnqueued` runs once it is, for what was committed meanwhile. Resolves once listening (or
 * once the first try failed: the retries go on); the function it resolves stops it.
 */
export async function listenToOutbox(url: string, onEnqueued: () => void, onError: (err: Error) => void): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    retry = undefined;
    if (closed) return;
    const next = new pg.Client({ connectionString: url });
    client = next;
    let lost = false;
    const reconnect = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (err) onError(err);
      next.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect(), RECONNECT_MS).unref();
    };
    next.on('error', reconnect);
    next.on('end', () => reconnect());
    next.on('notification', () => onEnqueued());
    try {
      await next.connect();
      await next.query(`LISTEN ${OUTBOX_CHANNEL}`);
      onEnqueued();
    } catch (err) {
      reconnect(err instanceof Error ? err : new Error(String(err)));
    }
  };

  await connect();
  return async () => {
    closed = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
