// Deterministic visibility datasets for the benchmarks, written through the real import and
// cached as SQLite files under bench/.data/ (git-ignored), keyed by everything that shapes them.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importLines } from '../../src/import/import-ndjson.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { DAY_MS } from '../../src/analytics/periods.js';
import { PLATFORMS } from '../../src/analytics/platforms.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DATA_DIR = path.join(root, 'bench', '.data');
const GENERATOR_VERSION = 1;

export interface DatasetShape {
  /** Snapshots in the whole database. */
  snapshots: number;
  prompts: number;
  /** Days of history, ending today. */
  days: number;
}

export interface Dataset extends DatasetShape {
  file: string;
  workspaceId: string;
  ownerId: string;
  /** The prompt the analytics cases ask for (the first one): it has answers on every platform, on (nearly) every day of the history. */
  promptId: string;
  /** Seconds the import took when the file was built (null when it came from the cache). */
  importSeconds: number | null;
}

/** A small, fast, seedable PRNG (mulberry32): the same seed always writes the same file. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[Math.floor(random() * 4)]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

const COMPETITORS = ['HubSpot', 'Salesforce', 'Pipedrive', 'Zoho CRM', 'Freshsales', 'Monday Sales', 'Close', 'Copper'];
const CATEGORIES = [['Buying guides', '#4f46e5'], ['Pricing', '#f59e0b'], ['Integrations', '#10b981'], ['Alternatives', '#ef4444']] as const;
// Each platform answers with its own mention and citation levels.
const MENTION = [0.62, 0.48, 0.71, 0.39, 0.22, 0.55];
const CITATION = [0.35, 0.41, 0.58, 0.2, 0.08, 0.3];

/**
 * The import lines of a dataset: 8 competitors, 4 categories, `prompts` prompts, then
 * `snapshots` answers spread evenly over every (prompt, platform, day) cell by a stride that
 * visits each cell once before any repeats, so every prompt has data on every platform and, with
 * at least half as many answers as cells, on nearly every day.
 */
function* datasetLines(shape: DatasetShape, todayDay: number): Generator<string> {
  const random = prng(shape.snapshots ^ (shape.prompts << 20) ^ shape.days);
  for (const name of COMPETITORS) {
    yield JSON.stringify({ type: 'competitor', id: uuidFrom(random), name, domain: `${name.toLowerCase().replace(/\s+/g, '')}.example` });
  }
  const categoryIds = CATEGORIES.map(([name, color]) => {
    const id = uuidFrom(random);
    return { id, line: JSON.stringify({ type: 'category', id, name, color }) };
  });
  for (const c of categoryIds) yield c.line;
  const promptIds: string[] = [];
  for (let p = 0; p < shape.prompts; p++) {
    const id = uuidFrom(random);
    promptIds.push(id);
    yield JSON.stringify({
      type: 'prompt', id,
      text: `Which CRM should a team of ${5 + p} people choose for ${['sales', 'support', 'marketing', 'field work'][p % 4]}?`,
      category_id: p % 5 === 4 ? null : categoryIds[p % CATEGORIES.length]!.id,
      status: 'ACTIVE',
      created_at: new Date((todayDay - shape.days - 1) * DAY_MS + p * 60_000).toISOString(),
    });
  }
  const cells = shape.prompts * PLATFORMS.length * shape.days;
  let stride = Math.floor(cells * 0.6180339887) | 1;
  while (gcd(stride, cells) !== 1) stride += 2;
  for (let i = 0; i < shape.snapshots; i++) {
    const cell = (i * stride) % cells;
    const prompt = cell % shape.prompts;
    const platform = Math.floor(cell / shape.prompts) % PLATFORMS.length;
    const daysAgo = Math.floor(cell / (shape.prompts * PLATFORMS.length));
    // Trends that move: mention levels drift over a 60-day wave.
    const drift = 0.15 * Math.sin((daysAgo + prompt * 7) / 9.5);
    const mentioned = random() < MENTION[platform]! + drift;
    const named = COMPETITORS.filter(() => random() < 0.18);
    yield JSON.stringify({
      type: 'snapshot',
      id: uuidFrom(random),
      prompt_id: promptIds[prompt],
      platform: PLATFORMS[platform],
      collected_at: new Date((todayDay - daysAgo) * DAY_MS + Math.floor(random() * DAY_MS)).toISOString(),
      mentioned,
      cited: mentioned && random() < CITATION[platform]! / MENTION[platform]!,
      competitors: named,
      citations: mentioned ? [{ url: `https://acme.example/guides/${prompt}`, title: 'Choosing a CRM' }] : [],
      answer: `For a team like yours, ${named[0] ?? 'Acme'} and ${mentioned ? 'Acme' : 'others'} are common choices; compare pricing and integrations.`,
    });
  }
}

/** Everything that shapes a dataset file: a change to any of it rebuilds the cache. */
function fingerprint(shape: DatasetShape, todayDay: number): string {
  const hash = createHash('sha256').update(JSON.stringify({ shape, todayDay, GENERATOR_VERSION }));
  for (const dir of ['src/import', 'src/import-engine', 'src/import-engine/records', 'src/import-engine/tables', 'src/store/sqlite/import', 'src/store/sqlite/migrations']) {
    const abs = path.join(root, dir);
    for (const f of readdirSync(abs).filter((n) => /\.(ts|sql)$/.test(n)).sort()) hash.update(f).update(readFileSync(path.join(abs, f)));
  }
  return hash.digest('hex').slice(0, 12);
}

/** A fresh active workspace with its owner. */
export async function insertBenchWorkspace(store: Pick<Store, 'accounts'>): Promise<{ workspaceId: string; ownerId: string }> {
  const workspaceId = randomUUID();
  const ownerId = randomUUID();
  const created = new Date().toISOString();
  await store.accounts.insertWorkspace({ id: workspaceId, name: 'Acme (benchmark)', subscription_status: 'active', created_at: created });
  await store.accounts.insertUser({ id: ownerId, email: 'bench@acme.example', name: 'Bench Owner', created_at: created });
  await store.accounts.upsertMembership(workspaceId, ownerId, 'owner', created);
  return { workspaceId, ownerId };
}

/** The cached dataset for today, built through the import when missing. */
export async function dataset(shape: DatasetShape, log: (line: string) => void): Promise<Dataset> {
  mkdirSync(DATA_DIR, { recursive: true });
  const todayDay = Math.floor(Date.now() / DAY_MS);
  // Shapes of the same size (e.g. 1M snapshots over 40 or over 500 prompts) keep separate caches.
  const stem = `prompt-analytics-${shape.snapshots}-${shape.prompts}p-${shape.days}d`;
  const file = path.join(DATA_DIR, `${stem}-${fingerprint(shape, todayDay)}.db`);
  const meta = `${file}.json`;
  if (existsSync(file) && existsSync(meta)) return { ...(JSON.parse(readFileSync(meta, 'utf8')) as Dataset), importSeconds: null };

  for (const old of readdirSync(DATA_DIR).filter((n) => n.startsWith(`${stem}-`))) rmSync(path.join(DATA_DIR, old), { force: true });
  const building = `${file}.building`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${building}${suffix}`, { force: true });
  const store = openSqliteStore(building);
  const { workspaceId, ownerId } = await insertBenchWorkspace(store);
  log(`building ${shape.snapshots.toLocaleString('en-US')} snapshots (${shape.prompts} prompts, ${shape.days} days) through the import...`);
  const started = process.hrtime.bigint();
  await importLines(store, workspaceId, datasetLines(shape, todayDay));
  const importSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  log(`imported in ${importSeconds.toFixed(1)} s (${Math.round(shape.snapshots / importSeconds).toLocaleString('en-US')} snapshots/s)`);
  const promptId = store.db.prepare('SELECT id FROM prompts WHERE workspace_id = ? ORDER BY created_at, id LIMIT 1').pluck().get(workspaceId) as string;
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.db.close();
  renameSync(building, file);
  for (const suffix of ['-wal', '-shm']) rmSync(`${building}${suffix}`, { force: true });
  const result: Dataset = { ...shape, file, workspaceId, ownerId, promptId, importSeconds };
  writeFileSync(meta, JSON.stringify(result, null, 2));
  return result;
}
