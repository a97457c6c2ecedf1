import type { Writable } from 'node:stream';

const CHUNK_CHARS = 64 * 1024;

/** Resolves when the sink can take more, or when it is gone (client disconnected). */
function writable(sink: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      sink.off('drain', done);
      sink.off('close', done);
      sink.off('error', done);
      resolve();
    };
    sink.on('drain', done);
    sink.on('close', done);
    sink.on('error', done);
  });
}

/**
 * Writes lines to a response in chunks of about 64 KiB, waiting whenever the socket's buffer is
 * full, so memory holds one chunk whatever the size of the download. Lines are pulled from the
 * iterable only as fast as the client reads them, and pulling stops if the client goes away.
 */
export async function writeLines(sink: NodeJS.WritableStream, lines: Iterable<string>): Promise<void> {
  const out = sink as Writable;
  let chunk = '';
  for (const line of lines) {
    chunk += line;
    if (chunk.length < CHUNK_CHARS) continue;
    if (out.destroyed) return;
    const more = out.write(chunk);
    chunk = '';
    if (!more) await writable(out);
  }
  if (chunk !== '' && !out.destroyed) out.write(chunk);
}
