import { describe, expect, it } from 'vitest';
import { importLines } from '../../src/import/import-ndjson.js';
import type {
  AgentTaskInput, AgentTaskStatus, ArticleInput, ArticleStatus, BuyerStage, ContentStore, ResearchBatchStatus,
} from '../../src/store/interfaces/content.js';
import { createPostgresContentStore } from '../../src/store/postgres/content.js';
import { agentTaskLine, articleLine, changed, ideaLine, researchBatchLine, topicLine } from '../support/content-records.js';
import { postgresAvailable } from '../support/postgres.js';
import {
  expectSameAnswer, expectSamePages, sameForEach, sameFromBoth, type ParityDatabases, type StorePair, useParityDatabases,
} from '../support/store-parity.js';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T11:00:00.000Z';
const T2 = '2026-03-02T09:30:00.000Z';
const T3 = '2026-03-05T18:45:00.000Z';
const MAX_EXACT = Number.MAX_SAFE_INTEGER;

const ARTICLE_STATUSES: Array<ArticleStatus | undefined> = [undefined, 'DRAFT', 'PROCESSING', 'GENERATED', 'PUBLISHED', 'FAILED'];
const BUYER_STAGES: Array<BuyerStage | undefined> = [undefined, 'awareness', 'consideration', 'decision'];
const BATCH_STATUSES: Array<ResearchBatchStatus | undefined> = [undefined, 'QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'];
const TASK_STATUSES: Array<AgentTaskStatus | undefined> = [undefined, 'QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED'];
const AGENT_A = { id: '6b0f1f64-4e9c-4a36-9d55-2f7d1c8e9a10', name: 'Article writer', icon: 'pen', short_description: 'Writes an article from an idea' };
const AGENT_B = { id: '0a4f3c2e-1b7d-4e8a-9c6f-5d2e1a0b9c8d', name: 'Researcher 🔎', icon: '🔎', short_description: '' };

// Records of the workspace read: ties on created_at (ordered by id), later updates (the update
// order differs from the creation order), NULLs, Unicode, an article linked to a topic renamed
// after it, a batch without ideas, counts at the largest exact integer.
const topicA = topicLine({ name: 'AI search visibility', created_at: T0 });
const topicB = topicLine({ name: 'Ünïcödé 🚀 topic', created_at: T0 });
const topicARenamed = changed(topicA, { name: 'AI search visibility (renamed)', updated_at: T2 });
const batch1 = researchBatchLine({ topic_id: topicA.id, status: 'PROCESSING', created_at: T0 });
const batch2 = researchBatchLine({
  topic_id: topicB.id, status: 'COMPLETED', buyer_stage: null, persona_name: null, created_at: T0, updated_at: T3,
  research_log: { sources: ['https://a.example/ü'], depth: 3, nested: { z: 1, a: [true, null, 1.5] } },
  agent_log: [{ at: T0, message: 'started' }, { at: T1, message: 'Ünïcödé ✓' }],
});
const batch3 = researchBatchLine({ topic_id: topicA.id, status: 'FAILED', buyer_stage: 'decision', created_at: T1 });
const ideas = [
  ideaLine({ research_batch_id: batch1.id, topic_id: topicA.id, created_at: T0 }),
  ideaLine({ research_batch_id: batch1.id, topic_id: topicA.id, created_at: T0, buyer_stage: 'decision' }),
  ideaLine({ research_batch_id: batch1.id, created_at: T1, keywords: [], buyer_stage: null, persona_name: null }),
  ideaLine({ research_batch_id: batch2.id, topic_id: topicB.id, created_at: T0, updated_at: T3, title: 'Ideas with émoji 🚀 and "quotes"' }),
  ideaLine({ created_at: T2, title: 'Loose idea', keywords: ['Zeta', 'alpha', 'Älpha'] }),
  ideaLine({ topic_id: topicB.id, created_at: T1, buyer_stage: 'consideration' }),
];
const articles = [
  articleLine({ topic_id: topicA.id, status: 'PUBLISHED', created_at: T0, published_on: T2, research_batch_id: batch1.id }),
  articleLine({ topic_id: topicA.id, status: 'DRAFT', created_at: T0, updated_at: T3, buyer_stage: 'awareness' }),
  articleLine({ topic: 'Unlinked label', status: 'GENERATED', created_at: T0, buyer_stage: null, body: null, slug: null, config: { autowrite: false } }),
  articleLine({ topic: 'Ünïcödé label 🚀', status: 'PROCESSING', created_at: T1, updated_at: T2, body: '<p>😀 Ünïcödé \\ "quoted" \t tab</p>', keywords: [] }),
  articleLine({ topic_id: topicB.id, status: 'FAILED', created_at: T2, buyer_stage: 'decision', written_on: null }),
  articleLine({ topic: 'Another', status: 'PUBLISHED', created_at: T3, config: { autowrite: true, planned_for: null, planned_time: null } }),
];
const tasks = [
  agentTaskLine({ agent: AGENT_A, status: 'RUNNING', created_at: T0 }),
  agentTaskLine({
    agent: AGENT_A, status: 'SUCCEEDED', created_at: T0, started_at: T0, ended_at: T2, execution_duration: MAX_EXACT,
    usage: { input_tokens: MAX_EXACT - 991, output_tokens: 991, total_tokens: MAX_EXACT }, outputs: { article_id: 'x', score: 0.125 },
  }),
  agentTaskLine({ agent: AGENT_B, status: 'QUEUED', created_at: T1, started_at: null, inputs: {}, usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } }),
  agentTaskLine({ agent: AGENT_B, status: 'FAILED', created_at: T1, started_at: T1, ended_at: T3, execution_duration: 0, outputs: { error: 'Ünïcödé' } }),
];
// Records of another workspace, which no read of the first may show.
const otherTopic = topicLine({ created_at: T0 });
const otherBatch = researchBatchLine({ topic_id: otherTopic.id, created_at: T0 });
const otherIdea = ideaLine({ research_batch_id: otherBatch.id, created_at: T0 });
const otherArticle = articleLine({ topic_id: otherTopic.id, created_at: T0 });
const otherTask = agentTaskLine({ agent: AGENT_A, created_at: T0 });
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const UPDATED_AFTER = [null, T0, T1, T2, T3];

describe.skipIf(!postgresAvailable())('PostgreSQL content store answers as the SQLite one', () => {
  let pair: StorePair<ContentStore>;
  let workspaceId: string;

  const view = (opened: ParityDatabases) => ({
    pair: { sqlite: opened.sqlite.content, postgres: createPostgresContentStore(opened.pool) },
    workspaceId: opened.workspace.workspaceId,
  });
  const ownDatabases = useParityDatabases(async (sqlite, workspace, other) => {
    await importLines(sqlite, workspace.workspaceId, [topicA, topicB, batch1, batch2, batch3, ...ideas, ...articles, ...tasks].map((l) => l.line));
    await importLines(sqlite, workspace.workspaceId, [topicARenamed.line]);
    await importLines(sqlite, other.workspaceId, [otherTopic, otherBatch, otherIdea, otherArticle, otherTask].map((l) => l.line));
  }, (opened) => {
    ({ pair, workspaceId } = view(opened));
  });

  it('reads each record by id, and nothing of another workspace or an unknown id', async () => {
    const ids = (lines: ReadonlyArray<{ id: string }>) => lines.map((l) => l.id);
    expect(await sameForEach(pair, 'article', ids(articles), (s, id) => s.getArticle(workspaceId, id))).not.toContain(undefined);
    expect(await sameForEach(pair, 'idea', ids(ideas), (s, id) => s.getIdea(workspaceId, id))).not.toContain(undefined);
    expect(await sameForEach(pair, 'batch', ids([batch1, batch2, batch3]), (s, id) => s.getResearchBatch(workspaceId, id))).not.toContain(undefined);
    expect(await sameForEach(pair, 'task', ids(tasks), (s, id) => s.getAgentTask(workspaceId, id))).not.toContain(undefined);
    const absent = [UNKNOWN, otherArticle.id, otherIdea.id, otherBatch.id, otherTask.id];
    const none = absent.map(() => [undefined, undefined, undefined, undefined]);
    expect(await sameForEach(pair, 'absent', absent, async (s, id) => [
      await s.getArticle(workspaceId, id), await s.getIdea(workspaceId, id), await s.getResearchBatch(workspaceId, id), await s.getAgentTask(workspaceId, id),
    ])).toStrictEqual(none);
  });

  it('reads what the data holds at its edges: a renamed topic, ideas in order, NULLs and the largest exact counts', async () => {
    const linked = await pair.postgres.getArticle(workspaceId, articles[0]!.id);
    expect([linked?.topic, linked?.metadata.topic]).toEqual(['AI search visibility (renamed)', 'AI search visibility (renamed)']);
    const batch = await pair.postgres.getResearchBatch(workspaceId, batch1.id);
    expect(batch?.ideas.map((i) => i.id)).toEqual([ideas[0]!.id, ideas[1]!.id].sort().concat(ideas[2]!.id));
    expect((await pair.postgres.getResearchBatch(workspaceId, batch3.id))?.ideas).toEqual([]);
    const task = await pair.postgres.getAgentTask(workspaceId, tasks[1]!.id);
    expect([task?.usage.total_tokens, task?.execution_duration]).toEqual([MAX_EXACT, MAX_EXACT]);
    expect((await pair.postgres.getArticle(workspaceId, articles[2]!.id))?.body).toBeNull();
  });

  it('lists articles with each filter, in both orders, from every updated_after bound, page by page', async () => {
    const filters = [
      ...ARTICLE_STATUSES.map((status) => ({ status })),
      ...BUYER_STAGES.map((buyerStage) => ({ buyerStage })),
      ...[topicA.id, topicB.id, UNKNOWN].map((topicId) => ({ topicId })),
      { status: 'PUBLISHED' as const, topicId: topicA.id, buyerStage: 'consideration' as const },
    ];
    for (const filter of filters) {
      await expectSamePages(pair, `articles ${JSON.stringify(filter)}`, (s, page) => s.listArticles({ workspaceId, ...filter }, page), 'camelCase');
    }
    const all = await expectSamePages(pair, 'articles', (s, page) => s.listArticles({ workspaceId }, page), 'camelCase', UPDATED_AFTER);
    expect(all.map((a) => a.id).sort()).toEqual(articles.map((a) => a.id).sort());
  });

  it('lists ideas with each filter, in both orders, from every updated_after bound, page by page', async () => {
    const filters = [
      ...[batch1.id, batch2.id, batch3.id, otherBatch.id].map((researchBatchId) => ({ researchBatchId })),
      ...BUYER_STAGES.map((buyerStage) => ({ buyerStage })),
      ...[topicA.id, topicB.id].map((topicId) => ({ topicId })),
      { researchBatchId: batch1.id, topicId: topicA.id, buyerStage: 'decision' as const },
    ];
    for (const filter of filters) {
      await expectSamePages(pair, `ideas ${JSON.stringify(filter)}`, (s, page) => s.listIdeas({ workspaceId, ...filter }, page), 'snake_case');
    }
    const all = await expectSamePages(pair, 'ideas', (s, page) => s.listIdeas({ workspaceId }, page), 'snake_case', UPDATED_AFTER);
    expect(all).toHaveLength(ideas.length);
  });

  it('lists research batches, each with its ideas, with each filter, in both orders, page by page', async () => {
    const filters = [
      ...BATCH_STATUSES.map((status) => ({ status })),
      ...BUYER_STAGES.map((buyerStage) => ({ buyerStage })),
      ...[topicA.id, topicB.id].map((topicId) => ({ topicId })),
      { status: 'FAILED' as const, topicId: topicA.id, buyerStage: 'decision' as const },
    ];
    for (const filter of filters) {
      await expectSamePages(pair, `batches ${JSON.stringify(filter)}`, (s, page) => s.listResearchBatches({ workspaceId, ...filter }, page), 'camelCase');
    }
    const all = await expectSamePages(pair, 'batches', (s, page) => s.listResearchBatches({ workspaceId }, page), 'camelCase', UPDATED_AFTER);
    expect(all.map((b) => b.ideas_count).sort()).toEqual([0, 1, 3]);
  });

  it('lists agent tasks with each filter, in both orders, page by page', async () => {
    const filters = [
      ...TASK_STATUSES.map((status) => ({ status })),
      ...[AGENT_A.id, AGENT_B.id, UNKNOWN].map((agentId) => ({ agentId })),
      { status: 'FAILED' as const, agentId: AGENT_B.id },
    ];
    for (const filter of filters) {
      await expectSamePages(pair, `tasks ${JSON.stringify(filter)}`, (s, page) => s.listAgentTasks({ workspaceId, ...filter }, page), 'snake_case');
    }
    const all = await expectSamePages(pair, 'tasks', (s, page) => s.listAgentTasks({ workspaceId }, page), 'snake_case', UPDATED_AFTER);
    expect(all).toHaveLength(tasks.length);
  });

  it('lists nothing for a workspace without records', async () => {
    const none = { workspaceId: UNKNOWN };
    expect(await expectSamePages(pair, 'no articles', (s, page) => s.listArticles(none, page), 'camelCase')).toEqual([]);
    expect(await expectSamePages(pair, 'no ideas', (s, page) => s.listIdeas(none, page), 'snake_case')).toEqual([]);
    expect(await expectSamePages(pair, 'no batches', (s, page) => s.listResearchBatches(none, page), 'camelCase')).toEqual([]);
    expect(await expectSamePages(pair, 'no tasks', (s, page) => s.listAgentTasks(none, page), 'snake_case')).toEqual([]);
  });

  it('reads the stored states the import compares with', async () => {
    expect(await sameForEach(pair, 'status', [...articles, otherArticle].map((l) => l.id), (s, id) => s.articleStatus(id))).not.toContain(undefined);
    expect(await sameForEach(pair, 'status', [batch1, batch2, batch3].map((l) => l.id), (s, id) => s.researchBatchStatus(id))).toEqual(['PROCESSING', 'COMPLETED', 'FAILED']);
    expect(await sameForEach(pair, 'status', tasks.map((l) => l.id), (s, id) => s.agentTaskStatus(id))).toEqual(['RUNNING', 'SUCCEEDED', 'QUEUED', 'FAILED']);
    expect(await sameFromBoth(pair, 'unknown states', async (s) => [
      await s.articleStatus(UNKNOWN), await s.researchBatchStatus(UNKNOWN), await s.agentTaskStatus(UNKNOWN),
    ])).toStrictEqual([undefined, undefined, undefined]);
  });

  it('saves through its own methods as SQLite does: inserted, unchanged, updated with the state before, then read the same', async () => {
    const { pair, workspaceId } = view(await ownDatabases());
    // Ids the import would refuse, so that ties on the creation time order by code point: upper
    // case before lower case, then accented letters, then a fullwidth letter before an emoji (whose
    // UTF-16 form would sort it first).
    const ids = ['é-article', 'B-article', 'a-article', '\uFF21-article', '😀-article', 'Z-article'];
    const article = (id: string, fields: Partial<ArticleInput> = {}): ArticleInput => ({
      id, workspace_id: workspaceId, title: `Saved ${id}`, buyer_stage: null, status: 'DRAFT', topic_id: null, topic: 'Saved', keywords: ['k'],
      source: 'manual', config: { autowrite: false, planned_for: null, planned_time: null }, written_on: null, published_on: null,
      research_batch_id: null, body: null, cover_image: null, slug: null, permalink: null, meta_title: null, meta_description: null,
      post_url: null, created_at: '2026-04-01T00:00:00.000Z', updated_at: '2026-04-01T00:00:00.000Z', ...fields,
    });
    for (const id of ids) expect(await sameFromBoth(pair, `insert ${id}`, (s) => s.saveArticle(article(id)))).toEqual({ outcome: 'inserted', previous: undefined });
    expect(await sameFromBoth(pair, 'same again', (s) => s.saveArticle(article(ids[0]!)))).toEqual({ outcome: 'unchanged', previous: 'DRAFT' });
    const published = article(ids[0]!, { status: 'PUBLISHED', topic_id: topicA.id, keywords: [], updated_at: '2026-04-02T00:00:00.000Z' });
    expect(await sameFromBoth(pair, 'update', (s) => s.saveArticle(published))).toEqual({ outcome: 'updated', previous: 'DRAFT' });
    expect(await sameFromBoth(pair, 'state', (s) => s.articleStatus(ids[0]!))).toBe('PUBLISHED');
    const saved = await expectSamePages(pair, 'saved articles', (s, page) => s.listArticles({ workspaceId, topicId: undefined, status: 'DRAFT' }, page), 'camelCase', [null, '2026-03-31T00:00:00.000Z']);
    expect(saved.filter((a) => a.id.endsWith('-article')).map((a) => a.id)).toEqual(['B-article', 'Z-article', 'a-article', '\uFF21-article', '😀-article']);

    const idea = { id: 'idea-saved', workspace_id: workspaceId, title: 'Saved', topic_id: null, keywords: [], buyer_stage: null, persona_name: null,
      research_batch_id: batch3.id, created_at: T3, updated_at: T3 };
    expect(await sameFromBoth(pair, 'idea', (s) => s.saveIdea(idea))).toEqual({ outcome: 'inserted', previous: undefined });
    expect(await sameFromBoth(pair, 'idea again', (s) => s.saveIdea({ ...idea, keywords: ['now one'] }))).toEqual({ outcome: 'updated', previous: null });
    expect((await sameFromBoth(pair, 'batch with it', (s) => s.getResearchBatch(workspaceId, batch3.id)))?.ideas_count).toBe(1);

    const batch = { id: 'batch-saved', workspace_id: workspaceId, name: 'Saved', status: 'QUEUED' as const, topic_id: topicB.id, buyer_stage: null,
      persona_name: null, source: 'manual', agent_log: [], research_log: null, created_at: T3, updated_at: T3 };
    expect(await sameFromBoth(pair, 'batch', (s) => s.saveResearchBatch(batch))).toEqual({ outcome: 'inserted', previous: undefined });
    expect(await sameFromBoth(pair, 'batch done', (s) => s.saveResearchBatch({ ...batch, status: 'COMPLETED', research_log: { k: [1] } })))
      .toEqual({ outcome: 'updated', previous: 'QUEUED' });
    await sameFromBoth(pair, 'batch read', (s) => s.getResearchBatch(workspaceId, 'batch-saved'));

    const task: AgentTaskInput = { id: 'task-saved', workspace_id: workspaceId, agent: AGENT_B, name: 'Saved', status: 'QUEUED', inputs: { a: 1 },
      outputs: null, usage: { input_tokens: MAX_EXACT, output_tokens: 0, total_tokens: MAX_EXACT }, execution_duration: null, started_at: null,
      ended_at: null, created_at: T3, updated_at: T3 };
    expect(await sameFromBoth(pair, 'task', (s) => s.saveAgentTask(task))).toEqual({ outcome: 'inserted', previous: undefined });
    expect(await sameFromBoth(pair, 'task again', (s) => s.saveAgentTask({ ...task }))).toEqual({ outcome: 'unchanged', previous: 'QUEUED' });
    expect(await sameFromBoth(pair, 'task ran', (s) => s.saveAgentTask({ ...task, status: 'SUCCEEDED', outputs: {}, execution_duration: 5 })))
      .toEqual({ outcome: 'updated', previous: 'QUEUED' });
    expectSameAnswer(await pair.sqlite.getAgentTask(workspaceId, 'task-saved'), await pair.postgres.getAgentTask(workspaceId, 'task-saved'), 'task read');
  });

  it('in PostgreSQL, saves of one new record at the same time take turns: one inserts it, the others find it as they would write it', async () => {
    const { pair, workspaceId } = view(await ownDatabases());
    for (let round = 0; round < 5; round += 1) {
      const idea = { id: `idea-raced-${round}`, workspace_id: workspaceId, title: 'Raced', topic_id: null, keywords: [], buyer_stage: null,
        persona_name: null, research_batch_id: null, created_at: T3, updated_at: T3 };
      const results = await Promise.all(Array.from({ length: 8 }, () => pair.postgres.saveIdea(idea)));
      expect(results.map((r) => r.outcome).sort()).toEqual(['inserted', ...Array.from({ length: 7 }, () => 'unchanged')]);
    }
  });
});
