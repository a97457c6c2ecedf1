// Writes test/setup/file-durations.json from the durations vitest's results cache holds for the
// last run of each test file (node_modules/.vite/vitest/*/results.json). The sequencer
// (test/setup/longest-first-sequencer.ts) hands out the longest files first; on a clean clone, as
// in CI, there is no cache, and these recorded durations stand in for it. Run after a whole
// `npm test` when files were added or their durations moved:
//   node scripts/record-test-durations.mjs
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './run-tool.mjs';

const cacheDir = path.join(root, 'node_modules', '.vite', 'vitest');
const caches = existsSync(cacheDir)
  ? readdirSync(cacheDir).map((dir) => path.join(cacheDir, dir, 'results.json')).filter((file) => existsSync(file))
  : [];
if (caches.length === 0) {
  console.error('record-test-durations: no vitest results cache under node_modules/.vite/vitest; run `npm test` first');
  process.exit(1);
}
const newest = caches.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
const { results } = JSON.parse(readFileSync(newest, 'utf8'));
const seconds = Object.fromEntries(results
  .filter(([key, result]) => typeof result?.duration === 'number' && existsSync(path.join(root, key.slice(key.indexOf(':') + 1))))
  .map(([key, result]) => [key, Math.round(result.duration / 100) / 10])
  .sort(([a], [b]) => (a < b ? -1 : 1)));
const out = path.join(root, 'test', 'setup', 'file-durations.json');
writeFileSync(out, `${JSON.stringify(seconds, null, 1)}\n`);
console.log(`record-test-durations: ${Object.keys(seconds).length} files into ${path.relative(root, out)}`);
