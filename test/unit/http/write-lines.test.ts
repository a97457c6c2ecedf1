import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeLines } from '../../../src/http/write-lines.js';

const LINE = `${'x'.repeat(1023)}\n`; // 1 KiB

/** A sink that holds its callbacks until released, like a client that is not reading. */
function stalledSink() {
  const pending: Array<() => void> = [];
  let received = 0;
  const sink = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _enc, done) {
      received += chunk.length;
      pending.push(done);
    },
  });
  return { sink, received: () => received, release: () => pending.splice(0).forEach((d) => d()) };
}

describe('writeLines', () => {
  it('when the client does not read, stops pulling lines until the buffer drains', async () => {
    const { sink, release } = stalledSink();
    let pulled = 0;
    function* lines() {
      for (let i = 0; i < 10_000; i += 1) {
        pulled += 1;
        yield LINE;
      }
    }
    const done = writeLines(sink, lines());
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One 64 KiB chunk went out and filled the buffer: about 64 lines pulled, not 10,000.
    expect(pulled).toBeLessThan(200);
    const interval = setInterval(release, 1);
    await done;
    clearInterval(interval);
    expect(pulled).toBe(10_000);
  });

  it('when the client goes away, stops pulling lines and resolves', async () => {
    const { sink } = stalledSink();
    let pulled = 0;
    function* lines() {
      for (;;) {
        pulled += 1;
        yield LINE;
      }
    }
    const done = writeLines(sink, lines());
    await new Promise((resolve) => setTimeout(resolve, 20));
    sink.destroy();
    await done;
    const after = pulled;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled).toBe(after);
    expect(pulled).toBeLessThan(200);
  });

  it('when every line fits, writes them all in order', async () => {
    const chunks: string[] = [];
    const sink = new Writable({ write(chunk: Buffer, _enc, done) { chunks.push(chunk.toString()); done(); } });
    await writeLines(sink, ['a\n', 'b\n', 'c\n']);
    expect(chunks.join('')).toBe('a\nb\nc\n');
  });

  it('when drain listeners go elsewhere (as the compression middleware sends them to its zlib stream), adds one, not one per wait', async () => {
    const { sink, release } = stalledSink();
    // Like compression: `on('drain')` is handed to another emitter, and `off` on the sink misses it.
    const zlib = new EventEmitter();
    const on = sink.on.bind(sink);
    sink.on = ((event: string, listener: (...args: unknown[]) => void) =>
      (event === 'drain' ? zlib.on(event, listener) : on(event, listener))) as typeof sink.on;
    on('drain', () => zlib.emit('drain'));
    const lines = Array.from({ length: 2_000 }, () => LINE);
    const done = writeLines(sink, lines);
    const interval = setInterval(release, 1);
    await done;
    clearInterval(interval);
    expect(zlib.listenerCount('drain')).toBe(1);
  });
});
