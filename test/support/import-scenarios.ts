// Import files that exercise every rule of the import (src/import/README.md), for tests that
// import the same files into two stores and compare what each one holds. Ids are derived from
// names, so every run writes the same data.
import { demoId, seededRandom } from '../../src/demo/demo-random.js';
import { generateDemoData } from '../../src/demo/generate-demo-data.js';
import { categoryLine, competitorLine, promptLine, snapshotLine } from './import-records.js';
import { agentTaskLine, articleLine, changed, ideaLine, iqRecordLine, pageLine, researchBatchLine, siteLine, topicLine, type Line } from './content-records.js';

/** The two workspaces a scenario imports into. */
export type ScenarioWorkspace = 'a' | 'b';

export interface ImportStep {
  workspace: ScenarioWorkspace;
  lines: readonly string[];
  events: boolean;
}

export interface ImportScenario {
  name: string;
  steps: readonly ImportStep[];
}

/** A file every store must refuse with the same ImportError, imported after `before`, changing nothing. */
export interface RejectedFile {
  name: string;
  before: readonly ImportStep[];
  file: ImportStep;
}

/** The id of `name`: the same in every run, distinct for each name. */
export function scenarioId(name: string): string {
  return demoId('import-scenarios', name);
}

function json(fields: Record<string, unknown>): string {
  return JSON.stringify(fields);
}

const step = (lines: readonly string[], events = true, workspace: ScenarioWorkspace = 'a'): ImportStep => ({ workspace, lines, events });
const linesOf = (...items: Array<Line | string>): string[] => items.map((item) => (typeof item === 'string' ? item : item.line));

/** Visibility records: categories, competitors, prompts and their answers, by name. */
function visibility(prefix: string) {
  const id = (name: string) => scenarioId(`${prefix}:${name}`);
  return {
    id,
    category: (name: string, fields: Record<string, unknown> = {}) => categoryLine({ id: id(`category:${name}`), name, ...fields }).line,
    competitor: (name: string, fields: Record<string, unknown> = {}) =>
      competitorLine({ id: id(`competitor:${name}`), name, domain: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example`, ...fields }).line,
    prompt: (name: string, fields: Record<string, unknown> = {}) => promptLine({ id: id(`prompt:${name}`), text: `best ${name} tool`, ...fields }).line,
    snapshot: (name: string, promptName: string, fields: Record<string, unknown> = {}) =>
      snapshotLine({ id: id(`snapshot:${name}`), prompt_id: id(`prompt:${promptName}`), answer: `Answer ${name}.`, ...fields }).line,
  };
}

/** One record of every type, with forward references, then changes, then the same again. */
function everyRecordType(): ImportScenario {
  const v = visibility('every');
  const topic = topicLine({ id: scenarioId('every:topic'), stage: 'PROCESSING' });
  const site = siteLine({ id: scenarioId('every:site') });
  const page = pageLine({ id: scenarioId('every:page'), site_id: site.id, topic_id: topic.id });
  const batch = researchBatchLine({ id: scenarioId('every:batch'), topic_id: topic.id, status: 'COMPLETED' });
  const idea = ideaLine({ id: scenarioId('every:idea'), research_batch_id: batch.id, topic_id: topic.id });
  const article = articleLine({ id: scenarioId('every:article'), topic_id: topic.id, research_batch_id: batch.id, status: 'PUBLISHED' });
  const loose = articleLine({ id: scenarioId('every:loose-article'), status: 'DRAFT', topic: 'A label of its own' });
  const task = agentTaskLine({ id: scenarioId('every:task') });
  const product = iqRecordLine('product', { id: scenarioId('every:product'), is_default: true });
  const persona = iqRecordLine('persona', { id: scenarioId('every:persona'), product_id: product.id, stage: 'PROCESSING' });
  const profile = json({ type: 'workspace_profile', id: scenarioId('every:profile'), brand_name: 'Acme', domains: ['WWW.Acme.Example', 'acme.example'], tracked_platforms: ['claude', 'chatgpt'], collection_cadence: 'daily' });
  const plan = json({ type: 'workspace_plan', id: scenarioId('every:plan'), name: 'Growth', tracked_prompts_limit: 50, articles_per_month_limit: null, period_start: '2026-03-01', period_end: '2026-03-31' });
  const citations = [
    { url: 'https://www.acme.example/pricing/', title: 'Pricing' },
    { url: 'https://rival.example/compare?utm_source=chatgpt.com', title: '' },
    { url: 'https://www.acme.example/pricing/', title: 'Pricing, again' },
  ];
  const first = [
    // Answers before their prompt, the prompt before its category, the competitor after the answer naming it.
    v.snapshot('s1', 'p1', { competitors: ['Rival', 'RIVAL'], citations, cited: true }),
    v.snapshot('s2', 'p1', { platform: 'claude', collected_at: '2026-03-02T23:59:59.999+02:00', mentioned: false }),
    v.prompt('p1', { category_id: v.id('category:Pricing').toUpperCase() }),
    v.category('Pricing'),
    v.competitor('Rival'),
    v.prompt('p2', { status: 'PENDING', created_at: '2026-01-02T00:00:00+01:00', updated_at: '2026-01-03T00:00:00Z' }),
    v.snapshot('s3', 'p2', { platform: 'perplexity', collected_at: '2026-02-27T08:00:00Z', citations: citations.slice(0, 1) }),
    ...linesOf(article, loose, idea, batch, page, topic, site, task, persona, product),
    profile,
    plan,
  ];
  const second = [
    // Changes: statuses and stages (events), an answer moved to another day, platform and prompt.
    v.snapshot('s1', 'p2', { competitors: [], citations: citations.slice(1), platform: 'gemini', collected_at: '2026-03-05T00:00:00Z' }),
    v.snapshot('s4', 'p1', { competitors: ['rival'], collected_at: '2026-02-01T00:00:00Z' }),
    v.prompt('p1', { text: 'best tool, reworded', category_id: v.id('category:Pricing') }),
    v.competitor('Rival', { name: 'Rival Inc', domain: 'rival-inc.example' }),
    v.snapshot('s5', 'p1', { competitors: ['RIVAL INC'] }),
    v.category('Pricing', { color: '#000000' }),
    ...linesOf(
      changed(topic, { stage: 'READY', name: 'AI visibility, renamed' }),
      changed(article, { status: 'GENERATED' }),
      changed(article, { status: 'PUBLISHED', title: 'Published again' }),
      changed(task, { status: 'SUCCEEDED', usage: { input_tokens: 1200, output_tokens: 800, total_tokens: 2000 }, ended_at: '2026-03-01T10:30:00.000Z' }),
      changed(batch, { status: 'FAILED' }),
      ideaLine({ id: scenarioId('every:idea-2'), research_batch_id: batch.id, created_at: '2026-03-01T09:00:00.000Z' }),
      changed(site, { processing: { total: 128, ready: 125, failed: 3, completed: true } }),
      changed(persona, { stage: 'READY', is_default: true }),
      iqRecordLine('product', { id: scenarioId('every:product-2'), is_default: true }),
      changed(page, { status: 'FAILED', topic_id: null }),
    ),
    json({ type: 'workspace_profile', id: scenarioId('every:profile-2'), brand_name: 'Acme Inc', domains: ['acme.example'], tracked_platforms: ['chatgpt'], collection_cadence: 'weekly' }),
    plan,
  ];
  return { name: 'every record type, then changes, then the same files again', steps: [step(first), step(second), step(first), step(second)] };
}

/** Deletions: a prompt with its answers, answers alone, a competitor once no answer names it, a record deleted and imported again. */
function deletions(): ImportScenario {
  const v = visibility('delete');
  const topic = topicLine({ id: scenarioId('delete:topic'), stage: 'COMPLETED' });
  const article = articleLine({ id: scenarioId('delete:article'), topic_id: topic.id, status: 'PUBLISHED' });
  const base = [
    v.category('Cat'),
    v.competitor('Gone'),
    v.competitor('Kept'),
    v.prompt('doomed', { category_id: v.id('category:Cat') }),
    v.prompt('kept'),
    ...Array.from({ length: 30 }, (_, i) =>
      v.snapshot(`d${i}`, i % 3 === 0 ? 'kept' : 'doomed', {
        collected_at: new Date(Date.UTC(2026, 2, 1 + (i % 7), i)).toISOString(),
        competitors: i % 4 === 0 ? ['Gone'] : ['Kept'],
        citations: [{ url: `https://site${i % 5}.example/page`, title: `Page ${i % 5}` }],
        platform: ['chatgpt', 'claude', 'gemini'][i % 3],
      }),
    ),
    ...linesOf(topic, article),
  ];
  const del = (recordType: string, id: string) => json({ type: 'delete', record_type: recordType, id });
  const removals = [
    del('prompt', v.id('prompt:doomed')),
    ...[0, 12, 24].map((i) => del('snapshot', v.id(`snapshot:d${i}`).toUpperCase())),
    del('competitor', v.id('competitor:Gone')),
    del('article', article.id),
    // Deleted, then back as a new record that announces itself.
    article.line,
    // An answer deleted and imported again in the same file: its row and its id are still stored when it comes back.
    del('snapshot', v.id('snapshot:d6')),
    v.snapshot('d6', 'kept', { competitors: ['Kept'], collected_at: '2026-03-02T05:00:00Z', citations: [{ url: 'https://site1.example/page', title: 'Page 1' }] }),
    del('category', v.id('category:Cat')),
    v.category('Cat', { name: 'Back again' }),
    v.snapshot('d3', 'kept', { competitors: ['Kept'], collected_at: '2026-03-09T00:00:00Z' }),
  ];
  return { name: 'deletions with cascades, rollups and ids that come back', steps: [step(base), step(removals), step(removals.slice(-3))] };
}

/** Records that wait for the end of the file: answers naming competitors defined after them, products after the records of theirs, changes of state. */
function deferred(): ImportScenario {
  const v = visibility('defer');
  const product = iqRecordLine('product', { id: scenarioId('defer:product') });
  const voice = iqRecordLine('voice', { id: scenarioId('defer:voice'), product_id: product.id, is_default: true });
  const batch = researchBatchLine({ id: scenarioId('defer:batch'), topic_id: scenarioId('defer:topic'), status: 'QUEUED' });
  const topic = topicLine({ id: scenarioId('defer:topic'), stage: 'PROCESSING' });
  const first = [
    v.prompt('p'),
    ...Array.from({ length: 12 }, (_, i) => v.snapshot(`w${i}`, 'p', { competitors: [`Late ${i % 4}`], collected_at: new Date(Date.UTC(2026, 1, 1 + i)).toISOString() })),
    voice.line,
    batch.line,
    ...Array.from({ length: 4 }, (_, i) => v.competitor(`Late ${i}`)),
    product.line,
    topic.line,
  ];
  const second = [
    // A stored record changes state twice, with another change between: each event shows its moment.
    changed(batch, { status: 'COMPLETED' }).line,
    ideaLine({ id: scenarioId('defer:idea'), research_batch_id: batch.id }).line,
    changed(topic, { stage: 'READY' }).line,
    changed(batch, { status: 'FAILED', name: 'Renamed' }).line,
    changed(topic, { stage: 'COMPLETED', name: 'Topic renamed' }).line,
    v.snapshot('w0', 'p', { competitors: ['Late 3', 'late 2'] }),
    v.competitor('Later'),
    v.snapshot('w1', 'p', { competitors: ['Later'] }),
  ];
  return { name: 'deferred records and events in file order', steps: [step(first), step(second), step(second)] };
}

/** The same changes of state without events: counted, not written. */
function withoutEvents(): ImportScenario {
  const topic = topicLine({ id: scenarioId('quiet:topic'), stage: 'COMPLETED' });
  const article = articleLine({ id: scenarioId('quiet:article'), topic_id: topic.id, status: 'PUBLISHED' });
  const task = agentTaskLine({ id: scenarioId('quiet:task'), status: 'SUCCEEDED', usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 }, ended_at: '2026-03-01T10:05:00.000Z' });
  const first = linesOf(topic, article, task);
  const second = linesOf(changed(topic, { stage: 'READY' }), changed(article, { status: 'FAILED' }), changed(task, { status: 'FAILED' }));
  return { name: 'imports without events', steps: [step(first, false), step(second, false), step(first, true)] };
}

/** Two workspaces side by side. */
function twoWorkspaces(): ImportScenario {
  const a = visibility('two-a');
  const b = visibility('two-b');
  return {
    name: 'two workspaces',
    steps: [
      step([a.competitor('Same'), a.prompt('p'), a.snapshot('s', 'p', { competitors: ['Same'] })], true, 'a'),
      step([b.competitor('Same'), b.prompt('p'), b.snapshot('s', 'p', { competitors: ['same'], citations: [{ url: 'https://x.example/', title: 'X' }] })], true, 'b'),
    ],
  };
}

/** Competitors that trade names within one file, and brand records that pass their kind's default flag around. */
function tradedNames(): ImportScenario {
  const v = visibility('trade');
  const kinds = ['product', 'product', 'persona', 'persona'].map((kind, i) => iqRecordLine(kind, { id: scenarioId(`trade:iq${i}`), is_default: i % 2 === 0 }));
  const first = [v.competitor('A', { name: 'Xeno' }), v.competitor('B', { name: 'Yara' }), v.prompt('p'), ...linesOf(...kinds)];
  const second = [
    v.competitor('A', { name: 'Zed' }),
    v.competitor('B', { name: 'XENO' }),
    v.competitor('A', { name: 'Yara' }),
    v.snapshot('s', 'p', { competitors: ['xeno', 'yara'] }),
    ...linesOf(changed(kinds[1]!, { is_default: true }), changed(kinds[0]!, { is_default: true, stage: 'PROCESSING' }), changed(kinds[3]!, { is_default: true })),
    ...linesOf(changed(kinds[1]!, { is_default: true, title: 'Default again' })),
  ];
  return { name: 'competitors trading names and default flags moving between brand records', steps: [step(first), step(second), step(second)] };
}

/** Many records that wait for the end of the file, and many events, more than one page of each. */
function manyWaiting(): ImportScenario {
  const v = visibility('many');
  const topic = topicLine({ id: scenarioId('many:topic'), stage: 'READY' });
  const articles = Array.from({ length: 700 }, (_, i) => articleLine({ id: scenarioId(`many:article${i}`), topic_id: topic.id, status: 'PUBLISHED' }));
  const first = [
    v.prompt('p'),
    ...Array.from({ length: 1200 }, (_, i) =>
      v.snapshot(`w${i}`, 'p', { competitors: [`Late ${i % 3}`], collected_at: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString() }),
    ),
    ...linesOf(...articles),
    ...Array.from({ length: 3 }, (_, i) => v.competitor(`Late ${i}`)),
    topic.line,
  ];
  const second = [
    ...articles.map((a, i) => changed(a, { status: i % 2 === 0 ? 'FAILED' : 'PUBLISHED', title: `Retitled ${i}` }).line),
    changed(topic, { name: 'Renamed while its articles wait' }).line,
    ...articles.slice(0, 50).map((a) => changed(a, { status: 'DRAFT' }).line),
  ];
  return { name: 'many waiting records and events across pages', steps: [step(first), step(second)] };
}

/** The demo data set, as `npm start` imports it (smaller), then again (every record unchanged). */
export function demoScenario(options: { prompts: number; days: number; answersPerDay: number }): ImportScenario {
  const lines = [...generateDemoData({ seed: 7, ...options, today: new Date('2026-11-22T12:00:00Z'), idNamespace: 'parity' })];
  return { name: `the demo data (${options.prompts} prompts, ${options.days} days)`, steps: [step(lines), step(lines)] };
}

/**
 * The demo data with answers coming back later in the same file, 97 answers on: every seventh
 * changed, now and then one deleted (every other one of those written again right after), so that
 * most batches touch answers, ids and rollup rows the batch before wrote, and few delete anything;
 * then the demo data again, which undoes it all.
 */
export function revisitedDemoScenario(options: { prompts: number; days: number; answersPerDay: number }): ImportScenario {
  const lines = [...generateDemoData({ seed: 13, ...options, today: new Date('2026-11-22T12:00:00Z'), idNamespace: 'revisited' })];
  const revisited: string[] = [];
  const answers: string[] = [];
  for (const line of lines) {
    revisited.push(line);
    if (!line.startsWith('{"type":"snapshot"')) continue;
    answers.push(line);
    const n = answers.length;
    if (n <= 97) continue;
    const back = answers[n - 98]!;
    const record = JSON.parse(back) as { id: string; mentioned: boolean };
    if (n % 7 === 3) {
      revisited.push(json({ ...record, mentioned: !record.mentioned }));
    } else if (n % 300 === 5 || n % 300 === 150) {
      revisited.push(json({ type: 'delete', record_type: 'snapshot', id: record.id }));
      if (n % 300 === 150) revisited.push(back);
    }
  }
  return { name: `the demo data with answers changed, deleted and written again later in the file (${options.prompts} prompts, ${options.days} days)`, steps: [step(revisited), step(lines)] };
}

/**
 * The demo data with its answers in scrambled day order (each answer lands before days already
 * written), then again in file order: every answer unchanged.
 */
export function scrambledDemoScenario(options: { prompts: number; days: number; answersPerDay: number }): ImportScenario {
  const lines = [...generateDemoData({ seed: 11, ...options, today: new Date('2026-11-22T12:00:00Z'), idNamespace: 'scrambled' })];
  const random = seededRandom(5);
  const answers = lines.filter((l) => l.startsWith('{"type":"snapshot"'));
  for (let i = answers.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [answers[i], answers[j]] = [answers[j]!, answers[i]!];
  }
  const scrambled = [...lines.filter((l) => !l.startsWith('{"type":"snapshot"')), ...answers];
  return { name: `the demo data in scrambled order (${options.prompts} prompts, ${options.days} days)`, steps: [step(scrambled), step(lines)] };
}

/** Every scenario but the demo. */
export function importScenarios(): ImportScenario[] {
  return [everyRecordType(), deletions(), deferred(), withoutEvents(), twoWorkspaces(), tradedNames(), manyWaiting()];
}

/** Files that fail, each after a base file, with the error every store must give. */
export function rejectedFiles(): RejectedFile[] {
  const v = visibility('bad');
  const w = visibility('bad-b');
  const base = [
    step([
      v.category('C'),
      v.competitor('Taken'),
      // Three prompts of one category: deleting it names the first of them by id.
      ...['p', 'p2', 'p3'].map((name) => v.prompt(name, { category_id: v.id('category:C') })),
      v.snapshot('s', 'p', { competitors: ['Taken'] }),
    ]),
    step([w.prompt('theirs')], true, 'b'),
  ];
  const product = iqRecordLine('persona', { id: scenarioId('bad:persona') });
  const many = (n: number) => Array.from({ length: n }, (_, i) => v.snapshot(`many${i}`, 'p', { collected_at: new Date(Date.UTC(2026, 0, 1 + (i % 300))).toISOString() }));
  const cases: Array<[string, string[]]> = [
    ['a line that is not JSON after many good ones', [...many(2500), '{"type": "category",']],
    ['a reference to nothing, before a line that fails at the end', [v.prompt('q', { category_id: scenarioId('bad:nothing') }), v.snapshot('t', 'p', { competitors: ['Nobody'] })]],
    ['an answer naming no tracked competitor', [...many(10), v.snapshot('u', 'p', { competitors: ['Nobody'] })]],
    ['a competitor name already taken', [v.competitor('Other', { name: 'TAKEN' })]],
    ['a reference of the wrong type', [v.prompt('r', { category_id: v.id('prompt:p') })]],
    ['an id of another workspace', [json({ type: 'category', id: w.id('prompt:theirs'), name: 'x', color: '#000000' })]],
    ['a reference to another workspace', [v.prompt('r', { category_id: w.id('prompt:theirs') })]],
    ['an id used by another type', [v.category('x', { id: v.id('prompt:p') })]],
    ['a delete of an unknown id', [json({ type: 'delete', record_type: 'snapshot', id: scenarioId('bad:unknown') })]],
    ['a delete of a record still referred to', [json({ type: 'delete', record_type: 'category', id: v.id('category:C') })]],
    ['a delete of a competitor answers name', [json({ type: 'delete', record_type: 'competitor', id: v.id('competitor:Taken') })]],
    ['a product id that is a persona', [product.line, iqRecordLine('voice', { product_id: product.id, id: scenarioId('bad:voice') }).line]],
    ['a topic keyword twice', [topicLine({ id: scenarioId('bad:topic'), keywords: [{ keyword: 'a', msv: 1, kd: 1 }, { keyword: 'a', msv: 2, kd: 2 }] }).line]],
    ['an update before creation', [...many(1200), articleLine({ id: scenarioId('bad:article'), updated_at: '2020-01-01T00:00:00Z' }).line]],
    ['two references to one id as different types', [v.prompt('m', { category_id: scenarioId('bad:later') }), json({ type: 'snapshot', id: scenarioId('bad:s2'), prompt_id: scenarioId('bad:later'), platform: 'chatgpt', collected_at: '2026-03-01T00:00:00Z', mentioned: true, cited: false, competitors: [], citations: [], answer: 'a' })]],
    ['a record whose id is defined later as another type', [v.prompt('n', { category_id: scenarioId('bad:later-2') }), json({ type: 'competitor', id: scenarioId('bad:later-2'), name: 'Later', domain: 'later.example' })]],
  ];
  return cases.map(([name, lines]) => ({ name, before: base, file: step(lines) }));
}
