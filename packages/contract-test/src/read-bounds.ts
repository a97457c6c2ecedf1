/**
 * How much, and for how long, the checker reads from a party it does not control: an answer of the
 * server under test, or a POST to the webhook receiver. Bytes are counted as they arrive (after the
 * transfer's decompression, so a small compressed answer that inflates without end is stopped too)
 * and the read is given up at the bound: nothing past it is ever held.
 */

/** How long one request may take, its answer's body included, when `--request-timeout` is not given. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * An answer's bound. The largest answers the service gives are its exports: on the demo workspace
 * (`serve --demo`: 40 prompts, 120 days) the NDJSON of answers over `range=90d` is 29,575,049 bytes
 * (28.2 MiB) and its CSV 16.6 MB, and a busier workspace's are larger still. 64 MiB is more than
 * twice the demo's largest, and still stops an endless answer long before it hurts the machine the
 * checker runs on.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * A webhook delivery's bound: one event's envelope is a few kilobytes (the largest payload of the
 * contract, an article's status change, is under 2 KiB); 1 MiB is far above any of them.
 */
export const DEFAULT_MAX_DELIVERY_BYTES = 1024 * 1024;

/** The failure a report shows for a body past its bound: the bound and the option that moves it. */
export function overBoundProblem(what: 'answer' | 'delivery', maxBytes: number): string {
  return `the ${what}'s body is longer than ${maxBytes} bytes (--max-body-bytes): the read was stopped there`;
}

/** A body that went past its bound; the read was abandoned. */
export class BodyTooLong extends Error {
  /** The status of the answer whose body it was, once known. */
  status: number | null = null;

  constructor(readonly maxBytes: number) {
    super(overBoundProblem('answer', maxBytes));
  }
}

/**
 * Reads a fetch answer's body as text, at most `maxBytes` of it: past that the stream is cancelled
 * (and the connection with it) and `BodyTooLong` thrown.
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLong(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
