import type { Writable } from 'node:stream';
import { sendsNoBody } from './head-responses.js';

const CHUNK_CHARS = 64 * 1024;

/**
 * Writes lines to a response in chunks of about 64 KiB, waiting whenever the socket's buffer is
 * full, so memory holds one chunk whatever the size of the download. Lines are pulled from the
 * iterable only as fast as the client reads them, and pulling stops if the client goes away.
 * A HEAD request gets only the first line written (and discarded by Node), so its headers are
 * decided exactly as a GET's are, without reading the whole download.
 */
export async function writeLines(sink: NodeJS.WritableStream, lines: AsyncIterable<string> | Iterable<string>): Promise<void> {
  const out = sink as Writable;
  if (sendsNoBody(out)) {
    for await (const line of lines) {
      out.write(line);
      return;
    }
    return;
  }
  // One listener of each kind for the whole download, not one per wait: the compression
  // middleware hands `drain` listeners to its zlib stream, where `off` does not reach them.
  let wake: (() => void) | undefined;
  const ready = (): void => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  for (const event of ['drain', 'close', 'error']) out.on(event, ready);
  try {
    let chunk = '';
    for await (const line of lines) {
      chunk += line;
      if (chunk.length < CHUNK_CHARS) continue;
      if (out.destroyed) return;
      const more = out.write(chunk);
      chunk = '';
      if (!more) await new Promise<void>((resolve) => { wake = resolve; });
    }
    if (chunk !== '' && !out.destroyed) out.write(chunk);
  } finally {
    for (const event of ['drain', 'close', 'error']) out.off(event, ready);
  }
}
