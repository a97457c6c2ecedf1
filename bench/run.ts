// Runs every `bench/*.bench.ts` in sequence, each in its own process (so one benchmark's heap and
// open databases cannot slow the next), or only those named: `npm run bench -- prompt-analytics`.
// Options (`--name=value` or `--flag`) are passed to every benchmark, e.g. `npm run bench -- --duration=5`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const names = args.filter((a) => !a.startsWith('--'));
const passThrough = args.filter((a) => a.startsWith('--'));
const available = readdirSync(here).filter((f) => f.endsWith('.bench.ts')).sort();
const selected = names.length === 0 ? available : names.map((n) => `${n.replace(/\.bench\.ts$/, '')}.bench.ts`);
const unknown = selected.filter((f) => !available.includes(f));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.map((f) => f.replace('.bench.ts', '')).join(', ')}`);
  process.exit(2);
}

let failed = 0;
for (const file of selected) {
  console.log(`\n=== ${file}\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file), ...passThrough], { stdio: 'inherit' });
  if (run.status !== 0) {
    failed += 1;
    console.error(`${file} exited with ${run.status ?? run.signal}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
