// Writes the demo data set in the import format to standard output:
//   tsx scripts/generate-demo-data.ts --seed 42 --prompts 40 --days 120 --answers-per-day 3 [--today 2026-11-22] [--namespace NAME] > demo.ndjson
// then: npm run -s cli -- import --workspace ID demo.ndjson
// The same arguments (and the same --today) always give the same file.
import { once } from 'node:events';
import { DEFAULT_DEMO_OPTIONS, generateDemoData, type DemoDataOptions } from '../src/demo/generate-demo-data.js';

function fail(message: string): never {
  process.stderr.write(`error: ${message}\nusage: tsx scripts/generate-demo-data.ts [--seed N] [--prompts N] [--days N] [--answers-per-day N] [--today YYYY-MM-DD] [--namespace NAME]\n`);
  process.exit(1);
}

function parseOptions(argv: readonly string[]): DemoDataOptions {
  const options: DemoDataOptions = { ...DEFAULT_DEMO_OPTIONS };
  const integer = (name: string, value: string | undefined, min: number): number => {
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n < min) fail(`--${name} must be an integer ≥ ${min}`);
    return n;
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (name === '--seed') options.seed = integer('seed', value, 0);
    else if (name === '--prompts') options.prompts = integer('prompts', value, 0);
    else if (name === '--days') options.days = integer('days', value, 1);
    else if (name === '--answers-per-day') options.answersPerDay = integer('answers-per-day', value, 0);
    else if (name === '--namespace' && value) options.idNamespace = value;
    else if (name === '--today' && value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      options.today = new Date(`${value}T00:00:00Z`);
    } else fail(`unknown or incomplete option ${name ?? ''}`);
  }
  return options;
}

const options = parseOptions(process.argv.slice(2));
let buffer = '';
for (const line of generateDemoData(options)) {
  buffer += `${line}\n`;
  // Write in blocks and respect backpressure: a million lines never sit in memory.
  if (buffer.length > 1 << 16) {
    if (!process.stdout.write(buffer)) await once(process.stdout, 'drain');
    buffer = '';
  }
}
process.stdout.write(buffer);
