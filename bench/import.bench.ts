// Import throughput: writes N snapshot lines (plus their prompts and competitors) to a file, imports
// the file into a fresh database through the same streaming path as the CLI, then imports it again
// (every record unchanged). Prints lines/s and peak RSS. Run alone: `npx tsx bench/import.bench.ts
// [--lines=200000]`; options it does not know (bench/run.ts passes its own) are ignored.
import { createReadStream, createWriteStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../src/store/database.js';
import { createStore } from '../src/store/index.js';
import { importNdjson, type ImportSummary } from '../src/import/import-ndjson.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const option = (name: string, fallback: number): number => {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
};
const snapshotCount = option('lines', 200_000);

const PLATFORMS = ['chatgpt', 'google_ai_overview', 'perplexity', 'gemini', 'grok', 'claude'];
const COMPETITORS = ['Brightlytics', 'Chartwise', 'DataHarbor', 'Metricly', 'PulseBoard', 'Quantive', 'SignalStack', 'Trendfold'];
const PROMPTS = 40;

// Deterministic enough for a throughput figure; ids are fresh so the file can be imported anywhere.
let state = 42;
const random = (): number => {
  state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
  return state / 2_147_483_648;
};

async function writeFile(file: string): Promise<number> {
  const out = createWriteStream(file);
  let lines = 0;
  const write = async (record: object): Promise<void> => {
    lines += 1;
    if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, 'drain');
  };
  const competitorIds = COMPETITORS.map(() => randomUUID());
  for (const [i, name] of COMPETITORS.entries()) await write({ type: 'competitor', id: competitorIds[i], name, domain: `${name.toLowerCase()}.example` });
  const promptIds = Array.from({ length: PROMPTS }, () => randomUUID());
  for (const [i, id] of promptIds.entries()) {
    await write({ type: 'prompt', id, text: `benchmark prompt ${i}`, category_id: null, status: 'ACTIVE', created_at: '2025-01-01T00:00:00.000Z' });
  }
  const start = Date.UTC(2025, 0, 1);
  const step = Math.max(1, Math.floor((365 * 86_400_000) / snapshotCount));
  for (let i = 0; i < snapshotCount; i += 1) {
    const named = COMPETITORS.filter(() => random() < 0.25);
    const mentioned = random() < 0.45;
    const cited = mentioned && random() < 0.5;
    await write({
      type: 'snapshot',
      id: randomUUID(),
      prompt_id: promptIds[i % PROMPTS],
      platform: PLATFORMS[Math.floor(i / PROMPTS) % PLATFORMS.length],
      collected_at: new Date(start + i * step).toISOString(),
      mentioned,
      cited,
      competitors: named,
      citations: [
        { url: `https://acme-analytics.example/blog/post-${i % 97}`, title: 'How to measure product analytics' },
        { url: `https://reviews.example/compare/${i % 13}`, title: 'Top analytics tools compared' },
      ],
      answer: `For this question the usual picks are ${named.join(', ') || 'several tools'}${mentioned ? ' and Acme Analytics' : ''}. Each has trade-offs in pricing, integrations and support.`,
    });
  }
  out.end();
  await once(out, 'finish');
  return lines;
}

async function main(): Promise<void> {
  const dir = path.join(here, '.data', `import-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const file = path.join(dir, 'snapshots.ndjson');
    const lines = await writeFile(file);
    const store = createStore(openDatabase(path.join(dir, 'bench.db')));
    const workspaceId = randomUUID();
    store.accounts.insertWorkspace({ id: workspaceId, name: 'Benchmark', subscription_status: 'active', created_at: new Date().toISOString() });
    const rssBefore = process.memoryUsage().rss;

    // CPU time beside wall time: on a busy machine the wall clock measures the neighbours too.
    const timed = async (label: string, expected: keyof ImportSummary): Promise<void> => {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const summary = await importNdjson(store, workspaceId, createReadStream(file));
      const wall = (performance.now() - t0) / 1000;
      const used = process.cpuUsage(cpu);
      const cpuSeconds = (used.user + used.system) / 1e6;
      if (summary[expected] !== lines) throw new Error(`${label}: expected ${lines} ${expected}, got ${JSON.stringify(summary)}`);
      console.log(
        `${label.padEnd(30)} ${wall.toFixed(2)} s wall, ${Math.round(lines / wall)} lines/s; ${cpuSeconds.toFixed(2)} s CPU, ${Math.round(lines / cpuSeconds)} lines per CPU-second`,
      );
    };
    const mb = (bytes: number): string => `${(bytes / 1_048_576).toFixed(0)} MB`;
    console.log(`file: ${lines} lines (${snapshotCount} snapshots), ${mb(statSync(file).size)}; node ${process.version}`);
    await timed('first import (all inserted)', 'inserted');
    await timed('second import (all unchanged)', 'unchanged');
    store.db.close();
    console.log(`RSS before import ${mb(rssBefore)}, peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
