import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { competitorLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { createSqliteTestStore } from '../../support/test-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// The file's size and the heap's cap go together: with a 64 MB cap, an import that held this
// file's 39 MB of lines, or one parsed object per line, runs out of heap and dies. Fewer lines
// need a tighter cap to catch that (30,000 lines, 24 MB) and the garbage collector then costs more
// CPU than the lines saved: 50,000 lines under 40 MB took 10.5 s of CPU, 100,000 under 64 MB 7.5 s.
const LINES = 100_000;
const HEAP_MB = 64;

/**
 * Writes an import file of `lines` lines. Most snapshots come before their prompt, and a tenth name
 * a competitor defined on the last line, so forward references and records waiting for the end are
 * part of what must stay bounded.
 */
async function writeImportFile(file: string, lines: number): Promise<void> {
  const out = createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  const early = competitorLine({ name: 'Early' });
  const late = competitorLine({ name: 'Late' });
  const prompts = Array.from({ length: 40 }, () => promptLine());
  await write(early.line);
  const snapshots = lines - 2 - prompts.length;
  for (let i = 0; i < snapshots; i += 1) {
    const named = i % 10 === 0 ? ['Late', 'Early'] : i % 3 === 0 ? ['early'] : [];
    await write(
      snapshotLine({
        prompt_id: prompts[i % prompts.length]!.id,
        platform: ['chatgpt', 'perplexity', 'claude'][i % 3],
        collected_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        mentioned: i % 2 === 0,
        cited: i % 5 === 0,
        competitors: named,
        citations: [{ url: `https://acme.example/blog/${i % 50}`, title: 'A page of the brand' }],
        answer: `Answer ${randomUUID()} naming ${named.join(', ') || 'nobody in particular'}.`,
      }).line,
    );
  }
  for (const p of prompts) await write(p.line);
  await write(late.line);
  out.end();
  await once(out, 'finish');
}

describe('import: memory', () => {
  it(`when a ${LINES.toLocaleString('en')}-line file is imported, memory grows by a bounded amount, not with the file`, async () => {
    const { store, file, cleanup } = createSqliteTestStore();
    try {
      const { workspaceId } = await createTestWorkspace(store);
      store.db.close();
      const dir = path.dirname(file);
      const warm = promptLine();
      writeFileSync(path.join(dir, 'warm.ndjson'), `${warm.line}\n${snapshotLine({ prompt_id: warm.id }).line}\n`);
      await writeImportFile(path.join(dir, 'big.ndjson'), LINES);
      // Its own process, so the figure is the import's alone; sizes only, never time. Its heap is
      // capped: a heap left to grow as it likes keeps garbage until a collection comes round, and
      // how late that comes depends on the machine's load, not on the import. Under the cap, an
      // import that held the file or an object per line would die of it.
      const run = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, path.join(root, 'test/support/import-memory-child.mjs'), file, workspaceId, path.join(dir, 'warm.ndjson'), path.join(dir, 'big.ndjson')], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const { baseline, peak, summary } = JSON.parse(run.stdout) as { baseline: number; peak: number; summary: object };
      expect(summary).toEqual({ records: LINES, inserted: LINES, updated: 0, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 });
      console.log(`import memory: ${LINES} lines under a ${HEAP_MB} MB heap, RSS grew ${((peak - baseline) / 1024 / 1024).toFixed(1)} MB`);
      // Outside the capped heap (SQLite's page cache and WAL, the allocator's arenas), on Node 24.22
      // with better-sqlite3 13 the growth levels off rather than following the file: 93 MB for
      // 50,000 lines, 120 to 158 MB for 100,000, 179 MB for 200,000 (a 78 MB file), one run each.
      expect(peak - baseline).toBeLessThan(200 * 1024 * 1024);
    } finally {
      cleanup();
    }
  }, 180_000);
});
