import { importLines } from '../../src/import/import-ndjson.js';
import { seededRandom } from '../../src/demo/demo-random.js';
import { dayOf, DAY_MS } from '../../src/analytics/periods.js';
import { applyPostgresMigrations } from '../../src/store/postgres/migrate.js';
import { createPostgresPool, type PostgresPool } from '../../src/store/postgres/pool.js';
import { PLATFORMS } from '../../src/store/interfaces/visibility-rows.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createTestWorkspace } from './accounts.js';
import { pageLine, siteLine } from './content-records.js';
import { copySqliteToPostgres } from './copy-sqlite-to-postgres.js';
import { categoryLine, competitorLine, promptLine, snapshotLine } from './import-records.js';
import { createPostgresDatabase } from './postgres.js';
import { createSqliteTestStore } from './test-server.js';

/**
 * One data set, imported into a SQLite store and copied row for row into a PostgreSQL database, for
 * the tests that compare what the two implementations of a store area read. It is drawn from a
 * seeded generator (the same data on every run) and holds what orders and sums can disagree on:
 * creation and collection times shared by several records, names whose letter case or accents
 * sort differently from their lower-cased key, Unicode letters whose case only ICU folds,
 * answers on every side of each period edge and after today, a prompt without answers, an empty
 * workspace, and rollup counts near 2^42 whose sums only fit a 64-bit integer.
 */
export const TODAY = dayOf(Date.parse('2026-03-31T00:00:00.000Z'));

/** The competitor names of the main workspace: code-point order differs from lower-case order. */
const COMPETITOR_NAMES = ['Zeta', 'alpha', 'Beta', 'Ärger AG', 'émile', 'Émilie', 'Ωmega', 'straße', 'ǅungla', 'Omega'];

const PROMPT_TEXTS = [
  'Best CRM in İstanbul',
  'ÉCOLE de commerce ranking',
  'Straße map tools',
  'ΣΟΦΟΣ answers for teams',
  'plain ascii Text',
  'emoji 😀 analytics tools',
  'ǅungla travel guide',
  'best analytics tool for startups',
  'BEST ANALYTICS TOOL FOR ENTERPRISE',
  'Ärger with invoices',
];

/** Cited URLs: case differences, www and tracking variants of one page address, a fragment. */
export const CITED_URLS = [
  'https://acme.example/pricing',
  'https://www.acme.example/pricing/',
  'https://acme.example/pricing?utm_source=chatgpt.com',
  'https://Acme.example/Blog/Guide',
  'https://acme.example/blog/guide',
  'https://docs.acme.example/start#intro',
  'https://reviews.example.org/best-crm',
  'https://reviews.example.org/BEST-crm',
  'https://ünïcode.example/straße',
  'https://z.example/',
  'https://A.example/',
];

const TITLES = ['', 'Pricing', 'The guide', 'Ünïcode title', 'Start here'];

interface ParityWorkspace {
  workspaceId: string;
  promptIds: string[];
  categoryIds: string[];
  competitorIds: string[];
  pageIds: string[];
  answerIds: string[];
}

export interface ParityData {
  sqlite: SqliteStore;
  pool: PostgresPool;
  /** The main workspace: every kind of record. */
  main: ParityWorkspace;
  /** A second workspace with the same names and URLs, whose rows must never leak into the main one's reads. */
  other: ParityWorkspace;
  /** A workspace without any visibility record. */
  empty: ParityWorkspace;
  /** A workspace whose rollup rows hold counts near 2^42 (written into the tables directly). */
  big: ParityWorkspace;
  close(): Promise<void>;
}

function generator(seed: number) {
  const random = seededRandom(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const uuid = () => {
    const hex = Array.from({ length: 32 }, () => int(16).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
  };
  return { random, int, pick, uuid };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The lines of one workspace's visibility records and content-map pages. */
function workspaceLines(seed: number, options: { prompts: number; maxAnswers: number }) {
  const g = generator(seed);
  const lines: string[] = [];
  const ids: Omit<ParityWorkspace, 'workspaceId'> = { promptIds: [], categoryIds: [], competitorIds: [], pageIds: [], answerIds: [] };

  for (const [name, color] of [['Pricing', '#4F46E5'], ['Égalité', '#10B981'], ['alpha', '#000000']] as const) {
    const c = categoryLine({ id: g.uuid(), name, color });
    ids.categoryIds.push(c.id);
    lines.push(c.line);
  }
  for (const name of COMPETITOR_NAMES) {
    const c = competitorLine({ id: g.uuid(), name, domain: `${name.length}.example` });
    ids.competitorIds.push(c.id);
    lines.push(c.line);
  }

  // Creation times come in threes (ties broken by id); some prompts were updated after creation.
  const created = Date.parse('2026-01-01T00:00:00.000Z');
  for (let i = 0; i < options.prompts; i += 1) {
    const createdAt = iso(created + Math.floor(i / 3) * 60_000);
    const updated = i % 4 === 0 ? { updated_at: iso(created + 86_400_000 + (i % 8) * 60_000) } : {};
    const p = promptLine({
      id: g.uuid(),
      text: `${PROMPT_TEXTS[i % PROMPT_TEXTS.length]} #${i}`,
      status: (['ACTIVE', 'PENDING', 'GENERATING', 'ACTIVE'] as const)[i % 4],
      category_id: i % 5 === 4 ? null : ids.categoryIds[i % ids.categoryIds.length],
      created_at: createdAt,
      ...updated,
    });
    ids.promptIds.push(p.id);
    lines.push(p.line);
  }

  // Answers from 200 days before today to 2 days after it, every tenth (and the first of every third
  // prompt) at the instant of the answer before it; the last prompt has none, the one before only
  // answers before both periods of every range.
  let lastMs = (TODAY - 200) * DAY_MS;
  ids.promptIds.forEach((promptId, i) => {
    if (i === ids.promptIds.length - 1) return;
    const count = g.int(options.maxAnswers) + 1;
    for (let n = 0; n < count; n += 1) {
      const early = i === ids.promptIds.length - 2;
      const day = early ? TODAY - 190 - g.int(10) : TODAY - 200 + g.int(203);
      const tie = !early && (n % 10 === 9 || (n === 0 && i % 3 === 1));
      const ms = tie ? lastMs : day * DAY_MS + g.int(DAY_MS);
      lastMs = ms;
      const competitors = COMPETITOR_NAMES.filter(() => g.random() < 0.25).map((name) => (g.random() < 0.3 && name.toUpperCase().toLowerCase() === name.toLowerCase() ? name.toUpperCase() : name));
      const citations = Array.from({ length: g.int(4) }, () => ({ url: g.pick(CITED_URLS), title: g.pick(TITLES) }));
      const s = snapshotLine({
        id: g.uuid(),
        prompt_id: promptId,
        platform: g.pick(PLATFORMS),
        collected_at: iso(ms),
        mentioned: g.random() < 0.6,
        cited: g.random() < 0.3,
        competitors: [...new Set(competitors)],
        citations,
        answer: `Answer ${n} — ünïcode ✓`,
      });
      ids.answerIds.push(s.id);
      lines.push(s.line);
    }
  });

  // Content-map pages at the cited addresses: two at the same address (the exact URL wins, then
  // the oldest), created at one instant so the id decides between equals.
  const site = siteLine({ id: g.uuid() });
  lines.push(site.line);
  const pageUrls = [
    'https://www.acme.example/pricing/',
    'https://acme.example/pricing',
    'https://acme.example/pricing?plan=pro',
    'https://acme.example/blog/guide/',
    'https://docs.acme.example/start',
    'https://elsewhere.example/never-cited',
  ];
  pageUrls.forEach((url, i) => {
    const page = pageLine({ id: g.uuid(), site_id: site.id, url, created_at: iso(created + (i < 2 ? 0 : i) * 60_000) });
    ids.pageIds.push(page.id);
    lines.push(page.line);
  });
  return { lines, ids };
}

async function importWorkspace(store: SqliteStore, seed: number, options: { prompts: number; maxAnswers: number }): Promise<ParityWorkspace> {
  const { workspaceId } = await createTestWorkspace(store);
  if (options.prompts === 0) return { workspaceId, promptIds: [], categoryIds: [], competitorIds: [], pageIds: [], answerIds: [] };
  const { lines, ids } = workspaceLines(seed, options);
  await importLines(store, workspaceId, lines, { events: false });
  // Two later imports change every fifth answer, then every seventh: answers carry three update
  // times, each shared by many of them (ties broken by id in update order).
  for (const every of [5, 7]) {
    const changed = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record, i) => record.type === 'snapshot' && i % every === 0)
      .map((record) => JSON.stringify({ ...record, answer: `${String(record.answer)} (revised ${every})` }));
    await importLines(store, workspaceId, changed, { events: false });
  }
  return { workspaceId, ...ids };
}

/**
 * Counts near 2^42 written straight into the rollup tables of a workspace with one prompt,
 * competitor and cited URL: sums of a few of them pass 2^32 and the 53-bit limit of exact doubles
 * only far beyond, so both stores must give them back as the same exact numbers.
 */
function writeBigCounts(store: SqliteStore, big: ParityWorkspace): void {
  const db = store.db;
  const promptId = big.promptIds[0]!;
  const competitorId = big.competitorIds[0]!;
  const base = 2 ** 42;
  db.prepare('DELETE FROM prompt_day_totals WHERE prompt_id = ?').run(promptId);
  db.prepare('DELETE FROM prompt_platform_running WHERE prompt_id = ?').run(promptId);
  db.prepare('DELETE FROM prompt_competitor_running WHERE prompt_id = ?').run(promptId);
  db.prepare('DELETE FROM workspace_daily WHERE workspace_id = ?').run(big.workspaceId);
  db.prepare('DELETE FROM workspace_competitor_daily WHERE workspace_id = ?').run(big.workspaceId);
  db.prepare('DELETE FROM cited_page_daily WHERE workspace_id = ?').run(big.workspaceId);
  const urlId = db
    .prepare("INSERT INTO cited_urls (workspace_id, url, domain, address, title, title_collected_ms) VALUES (?, 'https://big.example/', 'big.example', 'big.example', NULL, NULL) RETURNING id")
    .pluck()
    .get(big.workspaceId) as number;
  let run = 0;
  for (let d = TODAY - 20; d <= TODAY; d += 1) {
    const total = base + d;
    run += total;
    db.prepare('INSERT INTO prompt_day_totals VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(promptId, d, total, total - 1, total - 2, run, run - 1, run - 2);
    db.prepare('INSERT INTO prompt_platform_running VALUES (?, ?, ?, ?, ?, ?)').run(promptId, 'claude', d, run, run - 3, run - 4);
    db.prepare('INSERT INTO prompt_competitor_running VALUES (?, ?, ?, ?)').run(promptId, competitorId, d, run - 5);
    for (const platform of ['chatgpt', 'grok']) {
      db.prepare('INSERT INTO workspace_daily VALUES (?, ?, ?, ?, ?, ?)').run(big.workspaceId, d, platform, total, total - 1, total - 2);
      db.prepare('INSERT INTO cited_page_daily VALUES (?, ?, ?, ?, ?, ?)').run(big.workspaceId, d, urlId, promptId, platform, total);
    }
    db.prepare('INSERT INTO workspace_competitor_daily VALUES (?, ?, ?, ?)').run(big.workspaceId, d, competitorId, total);
  }
}

/** The data set in both stores; `close()` removes the SQLite file and ends the pool. */
export async function openParityData(): Promise<ParityData> {
  const { store: sqlite, cleanup } = createSqliteTestStore();
  const main = await importWorkspace(sqlite, 1, { prompts: 40, maxAnswers: 60 });
  const other = await importWorkspace(sqlite, 2, { prompts: 7, maxAnswers: 20 });
  const empty = await importWorkspace(sqlite, 3, { prompts: 0, maxAnswers: 0 });
  const big = await importWorkspace(sqlite, 4, { prompts: 1, maxAnswers: 1 });
  writeBigCounts(sqlite, big);
  // A content-map page whose URL has no page address (an import never writes one: only http(s)
  // URLs are accepted), so both stores read the NULL.
  sqlite.db.prepare('UPDATE pages SET address = NULL WHERE id = ?').run(main.pageIds[main.pageIds.length - 1]);

  // A database whose default text order is not code-point order: every order and comparison of
  // the reads must come from the columns' "C" collation, as on a server with any locale.
  const pool = createPostgresPool(await createPostgresDatabase('wsapi_parity', { defaultCollation: 'en-US' }));
  await applyPostgresMigrations(pool);
  await copySqliteToPostgres(sqlite.db, pool);
  return {
    sqlite,
    pool,
    main,
    other,
    empty,
    big,
    close: async () => {
      await pool.end();
      cleanup();
    },
  };
}
