import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('import: memory', () => {
  it('when a 100,000-line file is imported, memory grows by a bounded amount, not with the file', () => {
    // Its own process, so the figure is the import's alone; sizes only, never time. Its heap is
    // capped: a heap left to grow as it likes keeps garbage until a collection comes round, and
    // how late that comes depends on the machine's load, not on the import. Under the cap, an
    // import that held the file or an object per line would die of it.
    const run = spawnSync(process.execPath, ['--max-old-space-size=64', '--import', 'tsx', path.join(root, 'test/support/import-memory-child.ts'), '100000'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const { baseline, peak, summary } = JSON.parse(run.stdout) as { baseline: number; peak: number; summary: object };
    expect(summary).toEqual({ records: 100_000, inserted: 100_000, updated: 0, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 });
    // The file is about 30 MB; the import's own bound is the SQLite page cache (64 MB) plus
    // batched rollup deltas. Holding the file or one object per line would pass 150 MB.
    expect(peak - baseline).toBeLessThan(150 * 1024 * 1024);
  }, 180_000);
});
