// Run as a separate process by test/integration/import/import-memory.test.ts: writes an import file
// of N lines, imports it from disk, and prints {baseline, peak} RSS in bytes as one JSON line.
// Most snapshots come before their prompt, and a tenth name a competitor defined on the last line,
// so forward references and records waiting for the end are part of what must stay bounded.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { importLines, importNdjson } from '../../src/import/import-ndjson.js';
import { createSqliteTestStore } from './test-server.js';
import { createTestWorkspace } from './accounts.js';
import { competitorLine, promptLine, snapshotLine } from './import-records.js';

const lines = Number(process.argv[2] ?? 100_000);
const { store, file, cleanup } = createSqliteTestStore();
try {
  const { workspaceId } = await createTestWorkspace(store);
  const early = competitorLine({ name: 'Early' });
  const late = competitorLine({ name: 'Late' });
  const prompts = Array.from({ length: 40 }, () => promptLine());
  const ndjson = path.join(path.dirname(file), 'big.ndjson');
  const out = createWriteStream(ndjson);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
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

  // Warm up: compile the schemas and load the code paths before measuring.
  const warm = promptLine();
  await importLines(store, workspaceId, [warm.line, snapshotLine({ prompt_id: warm.id }).line]);
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const summary = await importNdjson(store, workspaceId, createReadStream(ndjson));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  process.stdout.write(`${JSON.stringify({ baseline, peak, summary })}\n`);
} finally {
  cleanup();
}
