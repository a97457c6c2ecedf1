import type pg from 'pg';

/** What `client.query` takes besides SQL text: an object the client drives itself (a COPY stream). */
interface Submittable {
  submit: (connection: unknown) => void;
  once: (event: string, listener: () => void) => unknown;
}

const isSubmittable = (value: unknown): value is Submittable =>
  typeof value === 'object' && value !== null && typeof (value as { submit?: unknown }).submit === 'function';

/** Resolves when a COPY stream is done, whichever way. */
function endOf(stream: Submittable): Promise<void> {
  return new Promise((resolve) => {
    for (const event of ['finish', 'end', 'error', 'close']) stream.once(event, () => resolve());
  });
}

/**
 * The import's connection, sending its statements one after another. An import reads the next
 * batch's rows while the last batch is written and sends a batch's reads together; pg 8 queues a
 * statement sent while another runs, but warns that it is deprecated (pg 9 refuses it). Here each
 * statement waits for the one before to end, in the order they were sent, as pg's queue did. A COPY
 * stream is handed back at once, as `client.query` does: it holds what is written to it until the
 * server is ready for it, and is sent in its turn.
 */
export function oneStatementAtATime(client: pg.PoolClient): pg.PoolClient {
  let last: Promise<unknown> = Promise.resolve();
  const query = (...args: unknown[]): unknown => {
    const [first] = args;
    if (isSubmittable(first)) {
      const ended = endOf(first);
      void last.then(() => client.query(first as unknown as pg.Submittable));
      last = last.then(() => ended);
      return first;
    }
    const result = last.then(() => (client.query as (...a: unknown[]) => Promise<unknown>)(...args));
    last = result.catch(() => undefined);
    return result;
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
