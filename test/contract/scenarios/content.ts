import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestWorkspace } from '../../support/accounts.js';
import { agentTaskLine, articleLine, ideaLine, RESEARCH_BATCH_AS_READ, researchBatchLine, topicLine } from '../../support/content-records.js';
import { importRecords } from '../../support/visibility.js';
import type { OperationScenario, ScenarioContext } from './types.js';
import { invalidNaming, lastPage, notFoundOf, success } from './read-expectations.js';

const ARTICLES = '/api/v1/content/articles';
const IDEAS = '/api/v1/content/ideas';
const BATCHES = '/api/v1/content/research-batches';
const TASKS = '/api/v1/content/agent-tasks';

/** A topic, a research batch on it, one of its ideas and an article written from it, in `workspace`. */
async function seedLibrary(ctx: ScenarioContext, workspace: TestWorkspace) {
  const topic = topicLine({ name: 'AI search visibility' });
  const batch = researchBatchLine({ topic_id: topic.id, status: 'COMPLETED' });
  const idea = ideaLine({ topic_id: topic.id, research_batch_id: batch.id });
  const article = articleLine({ topic_id: topic.id, topic: undefined, research_batch_id: batch.id });
  const task = agentTaskLine({ status: 'RUNNING' });
  await importRecords(ctx.store, workspace, [topic, batch, idea, article, task]);
  const summary = {
    id: article.id,
    title: 'How to get your brand cited by ChatGPT',
    buyer_stage: 'consideration',
    metadata: { topic: 'AI search visibility', keywords: ['chatgpt brand mentions', 'ai citations'], source: 'research_batch' },
    status: 'GENERATED',
    config: { autowrite: true, planned_for: '2026-03-10', planned_time: '09:00' },
    written_on: '2026-03-02T16:40:00.000Z',
    published_on: null,
    research_batch_id: batch.id,
    topic: 'AI search visibility',
    keywords: ['chatgpt brand mentions', 'ai citations'],
    source: 'research_batch',
    cover_image: null,
    slug: 'get-cited-by-chatgpt',
    permalink: '/blog/get-cited-by-chatgpt',
    meta_title: 'How to get your brand cited by ChatGPT',
    meta_description: 'Seven changes that make AI assistants cite your pages.',
    post_url: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
  };
  return {
    topic,
    batch,
    summary,
    article: { ...summary, body: '<h1>How to get your brand cited by ChatGPT</h1><p>Answer the question first.</p>' },
    idea: {
      id: idea.id,
      title: 'Which pages do AI assistants cite, and why?',
      topic_id: topic.id,
      topic_name: 'AI search visibility',
      keywords: ['ai citations', 'llm sources'],
      buyer_stage: 'awareness',
      persona_name: 'Head of Content',
      research_batch_id: batch.id,
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:00:00.000Z',
    },
    researchBatch: {
      ...RESEARCH_BATCH_AS_READ,
      id: batch.id,
      ideas_count: 1,
      status: 'COMPLETED',
      topic_id: topic.id,
      topic_name: 'AI search visibility',
      ideas: [{ id: idea.id, title: 'Which pages do AI assistants cite, and why?', keywords: ['ai citations', 'llm sources'], buyer_stage: 'awareness' }],
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
    },
    agentTask: {
      id: task.id,
      agent_id: '6b0f1f64-4e9c-4a36-9d55-2f7d1c8e9a10',
      agent: { id: '6b0f1f64-4e9c-4a36-9d55-2f7d1c8e9a10', name: 'Article writer', icon: 'pen', short_description: 'Writes an article from an idea' },
      name: 'Write: How to get your brand cited by ChatGPT',
      status: 'RUNNING',
      inputs: { idea_title: 'How to get your brand cited by ChatGPT' },
      outputs: null,
      usage: { input_tokens: 1200, output_tokens: 0, total_tokens: 1200 },
      execution_duration: null,
      started_at: '2026-03-01T10:02:00.000Z',
      ended_at: null,
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:02:00.000Z',
    },
  };
}

const seeded = new WeakMap<ScenarioContext, Awaited<ReturnType<typeof seedLibrary>>>();
async function libraryOf(ctx: ScenarioContext) {
  let s = seeded.get(ctx);
  if (!s) seeded.set(ctx, (s = await seedLibrary(ctx, ctx.workspace)));
  return s;
}


export const contentScenarios: OperationScenario[] = [
  {
    operationId: 'listArticles',
    statuses: {
      200: async (ctx) => {
        const { topic } = await libraryOf(ctx);
        return { path: ARTICLES, query: { status: 'GENERATED', buyer_stage: 'consideration', topic: topic.id } };
      },
      422: {
        'status is not an article status': () => ({ path: ARTICLES, query: { status: 'ARCHIVED' } }),
        'buyer_stage is not a stage': () => ({ path: ARTICLES, query: { buyer_stage: 'retention' } }),
        'topic is not a UUID': () => ({ path: ARTICLES, query: { topic: 'seo' } }),
      },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(lastPage([(await libraryOf(ctx)).summary])),
      422: invalidNaming(/query\.(status|buyer_stage|topic)/),
    },
    list: {
      seed: async (ctx, workspace, n) => {
        const articles = Array.from({ length: n }, () => articleLine());
        await importRecords(ctx.store, workspace, articles);
        return articles.map((a) => a.id);
      },
    },
  },
  {
    operationId: 'getArticle',
    statuses: {
      200: async (ctx) => ({ path: `${ARTICLES}/${(await libraryOf(ctx)).article.id}` }),
      404: () => ({ path: `${ARTICLES}/${randomUUID()}` }),
      422: { 'the article id is not a UUID': () => ({ path: `${ARTICLES}/get-cited-by-chatgpt` }) },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(success((await libraryOf(ctx)).article)),
      404: notFoundOf('Article'),
      422: invalidNaming(/article/),
    },
    crossTenant: async (ctx) => ({ path: `${ARTICLES}/${(await seedLibrary(ctx, ctx.other)).article.id}` }),
  },
  {
    operationId: 'listIdeas',
    statuses: {
      200: async (ctx) => {
        const { batch, topic } = await libraryOf(ctx);
        return { path: IDEAS, query: { research_batch: batch.id, buyer_stage: 'awareness', topic: topic.id } };
      },
      422: {
        'research_batch is not a UUID': () => ({ path: IDEAS, query: { research_batch: 'latest' } }),
        'buyer_stage is not a stage': () => ({ path: IDEAS, query: { buyer_stage: 'loyalty' } }),
      },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(lastPage([(await libraryOf(ctx)).idea])),
      422: invalidNaming(/query\.(research_batch|buyer_stage)/),
    },
    list: {
      seed: async (ctx, workspace, n) => {
        const ideas = Array.from({ length: n }, () => ideaLine());
        await importRecords(ctx.store, workspace, ideas);
        return ideas.map((i) => i.id);
      },
    },
  },
  {
    operationId: 'getIdea',
    statuses: {
      200: async (ctx) => ({ path: `${IDEAS}/${(await libraryOf(ctx)).idea.id}` }),
      404: () => ({ path: `${IDEAS}/${randomUUID()}` }),
      422: { 'the idea id is not a UUID': () => ({ path: `${IDEAS}/1` }) },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(success((await libraryOf(ctx)).idea)),
      404: notFoundOf('Idea'),
      422: invalidNaming(/idea/),
    },
    crossTenant: async (ctx) => ({ path: `${IDEAS}/${(await seedLibrary(ctx, ctx.other)).idea.id}` }),
  },
  {
    operationId: 'listResearchBatches',
    statuses: {
      200: async (ctx) => {
        const { topic } = await libraryOf(ctx);
        return { path: BATCHES, query: { status: 'COMPLETED', topic: topic.id, buyer_stage: 'consideration', order: 'updated_at', updated_after: '2026-02-01T00:00:00Z' } };
      },
      422: {
        'status is not a batch status': () => ({ path: BATCHES, query: { status: 'DONE' } }),
        'topic is not a UUID': () => ({ path: BATCHES, query: { topic: 'seo' } }),
        'order is not a sort key': () => ({ path: BATCHES, query: { order: 'name' } }),
        'updated_after has no time zone': () => ({ path: BATCHES, query: { updated_after: '2026-02-01T00:00:00' } }),
      },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(lastPage([(await libraryOf(ctx)).researchBatch])),
      422: invalidNaming(/query\.(status|topic|order|updated_after)/),
    },
    list: {
      seed: async (ctx, workspace, n) => {
        const topic = topicLine();
        const batches = Array.from({ length: n }, () => researchBatchLine({ topic_id: topic.id }));
        await importRecords(ctx.store, workspace, [topic, ...batches]);
        return batches.map((b) => b.id);
      },
    },
  },
  {
    operationId: 'getResearchBatch',
    statuses: {
      200: async (ctx) => ({ path: `${BATCHES}/${(await libraryOf(ctx)).researchBatch.id}` }),
      404: () => ({ path: `${BATCHES}/${randomUUID()}` }),
      422: { 'the research batch id is not a UUID': () => ({ path: `${BATCHES}/latest` }) },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(success((await libraryOf(ctx)).researchBatch)),
      404: notFoundOf('Research batch'),
      422: invalidNaming(/research_batch/),
    },
    crossTenant: async (ctx) => ({ path: `${BATCHES}/${(await seedLibrary(ctx, ctx.other)).researchBatch.id}` }),
  },
  {
    operationId: 'listAgentTasks',
    statuses: {
      200: async (ctx) => {
        await libraryOf(ctx);
        return { path: TASKS, query: { status: 'RUNNING', agent: '6b0f1f64-4e9c-4a36-9d55-2f7d1c8e9a10', order: 'updated_at' } };
      },
      422: {
        'status is not a task status': () => ({ path: TASKS, query: { status: 'DONE' } }),
        'agent is not a UUID': () => ({ path: TASKS, query: { agent: 'writer' } }),
        'updated_after is not a date-time': () => ({ path: TASKS, query: { updated_after: 'yesterday' } }),
      },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(lastPage([(await libraryOf(ctx)).agentTask])),
      422: invalidNaming(/query\.(status|agent|updated_after)/),
    },
    list: {
      seed: async (ctx, workspace, n) => {
        const tasks = Array.from({ length: n }, () => agentTaskLine());
        await importRecords(ctx.store, workspace, tasks);
        return tasks.map((t) => t.id);
      },
    },
  },
  {
    operationId: 'getAgentTask',
    statuses: {
      200: async (ctx) => ({ path: `${TASKS}/${(await libraryOf(ctx)).agentTask.id}` }),
      404: () => ({ path: `${TASKS}/${randomUUID()}` }),
      422: { 'the agent task id is not a UUID': () => ({ path: `${TASKS}/7` }) },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(success((await libraryOf(ctx)).agentTask)),
      404: notFoundOf('Agent task'),
      422: invalidNaming(/agent_task/),
    },
    crossTenant: async (ctx) => ({ path: `${TASKS}/${(await seedLibrary(ctx, ctx.other)).agentTask.id}` }),
  },
];
