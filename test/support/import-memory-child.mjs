// Run as a separate process by test/process/import/import-memory.test.ts, on the compiled
// dist/ (plain node, no tsx compiling the sources first): imports the small warm-up file, then the
// big one, from disk into the SQLite file given, and prints {baseline, peak} RSS in bytes and the
// big import's summary as one JSON line.
//
//   node --max-old-space-size=M test/support/import-memory-child.mjs <db file> <workspace id> <warm-up file> <file>
import { createReadStream } from 'node:fs';
import { importNdjson } from '../../dist/import/import-ndjson.js';
import { openSqliteStore } from '../../dist/store/index.js';

const [dbFile, workspaceId, warmFile, file] = process.argv.slice(2);
const store = openSqliteStore(dbFile, { serving: true });
try {
  // Warm up: compile the schemas and load the code paths before measuring.
  await importNdjson(store, workspaceId, createReadStream(warmFile));
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const summary = await importNdjson(store, workspaceId, createReadStream(file));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  process.stdout.write(`${JSON.stringify({ baseline, peak, summary })}\n`);
} finally {
  store.db.close();
}
