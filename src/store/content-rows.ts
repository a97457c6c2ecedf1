// The content tables (articles, ideas, research batches, agent tasks) as both databases store them:
// the SQL every store runs, the columns an import writes, and the API's view of a stored row.
import type {
  AgentTask, AgentTaskInput, AgentTaskStatus, Article, ArticleInput, ArticleStatus, ArticleSummary, BuyerStage, ContentStore, Idea, IdeaInput,
  ResearchBatch, ResearchBatchInput, ResearchBatchStatus,
} from './interfaces/content.js';
import { fromJson, fromNullableJson, toNullableJson } from './json-columns.js';
import { filterIfGiven, type RecordListSql } from './record-list-sql.js';
import { wholeRowTable } from './whole-row-saves.js';

/** An article as stored: the import's columns, with its keywords as JSON and its config flattened. */
export type ArticleRow = Pick<
  ArticleInput,
  | 'id' | 'title' | 'buyer_stage' | 'status' | 'topic' | 'source' | 'written_on' | 'published_on' | 'research_batch_id' | 'cover_image'
  | 'slug' | 'permalink' | 'meta_title' | 'meta_description' | 'post_url' | 'created_at' | 'updated_at'
> & {
  keywords: string;
  autowrite: 0 | 1;
  planned_for: string | null;
  planned_time: string | null;
  /** Only the full article reads it. */
  body?: string | null;
};

export interface IdeaRow {
  id: string;
  title: string;
  topic_id: string | null;
  topic_name: string | null;
  keywords: string;
  buyer_stage: BuyerStage | null;
  persona_name: string | null;
  research_batch_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A research batch as stored, with its topic's name; its logs as JSON. */
export type ResearchBatchRow = Pick<
  ResearchBatchInput,
  'id' | 'name' | 'status' | 'topic_id' | 'buyer_stage' | 'persona_name' | 'source' | 'created_at' | 'updated_at'
> & {
  topic_name: string;
  agent_log: string;
  research_log: string | null;
};

/** An idea as its research batch lists it. */
export interface BatchIdeaRow {
  id: string;
  title: string;
  keywords: string;
  buyer_stage: BuyerStage | null;
}

export interface AgentTaskRow {
  id: string;
  agent_id: string;
  agent_name: string;
  agent_icon: string;
  agent_short_description: string;
  name: string;
  status: AgentTaskStatus;
  inputs: string;
  outputs: string | null;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  execution_duration: number | null;
  started_at: string | null;
  ended_at: string | null;
  created_at: string;
  updated_at: string;
}

// An article linked to a topic reads the topic's current name; the stored label is for unlinked ones.
const ARTICLE_SUMMARY_COLUMNS = `a.id, a.title, a.buyer_stage, a.status, coalesce(t.name, a.topic) AS topic, a.keywords, a.source,
  a.autowrite, a.planned_for, a.planned_time, a.written_on, a.published_on, a.research_batch_id, a.cover_image, a.slug,
  a.permalink, a.meta_title, a.meta_description, a.post_url, a.created_at, a.updated_at`;
const ARTICLE_FROM = 'FROM articles a LEFT JOIN topics t ON t.id = a.topic_id';
const IDEA_COLUMNS = `i.id, i.title, i.topic_id, t.name AS topic_name, i.keywords, i.buyer_stage, i.persona_name,
  i.research_batch_id, i.created_at, i.updated_at`;
const IDEA_FROM = 'FROM ideas i LEFT JOIN topics t ON t.id = i.topic_id';
const BATCH_COLUMNS = `b.id, b.name, b.status, b.topic_id, t.name AS topic_name, b.buyer_stage, b.persona_name, b.source,
  b.agent_log, b.research_log, b.created_at, b.updated_at`;
const BATCH_FROM = 'FROM research_batches b JOIN topics t ON t.id = b.topic_id';
const TASK_COLUMNS = `id, agent_id, agent_name, agent_icon, agent_short_description, name, status, inputs, outputs,
  input_tokens, output_tokens, total_tokens, execution_duration, started_at, ended_at, created_at, updated_at`;

/** Reads by id (`?` parameters: the id, then the workspace) and the ideas of one batch (`?`: the batch id). */
export const CONTENT_SQL = {
  getArticle: `SELECT ${ARTICLE_SUMMARY_COLUMNS}, a.body ${ARTICLE_FROM} WHERE a.id = ? AND a.workspace_id = ?`,
  getIdea: `SELECT ${IDEA_COLUMNS} ${IDEA_FROM} WHERE i.id = ? AND i.workspace_id = ?`,
  getBatch: `SELECT ${BATCH_COLUMNS} ${BATCH_FROM} WHERE b.id = ? AND b.workspace_id = ?`,
  batchIdeas: 'SELECT id, title, keywords, buyer_stage FROM ideas WHERE research_batch_id = ? ORDER BY created_at, id',
  getTask: `SELECT ${TASK_COLUMNS} FROM agent_tasks WHERE id = ? AND workspace_id = ?`,
} as const;

/** The time and id columns of a list over the table aliased `alias`. */
function timesOf(alias: string) {
  return { createdAt: `${alias}.created_at`, updatedAt: `${alias}.updated_at`, id: `${alias}.id` };
}

/** The lists; each filter is a named parameter, NULL when absent (`./record-list-sql.ts`). */
export const CONTENT_LISTS = {
  articles: {
    select: `SELECT ${ARTICLE_SUMMARY_COLUMNS} ${ARTICLE_FROM}`,
    where: `a.workspace_id = @workspace_id AND ${filterIfGiven('a.status')} AND ${filterIfGiven('a.buyer_stage')} AND ${filterIfGiven('a.topic_id')}`,
    ...timesOf('a'),
  },
  ideas: {
    select: `SELECT ${IDEA_COLUMNS} ${IDEA_FROM}`,
    where: `i.workspace_id = @workspace_id AND ${filterIfGiven('i.research_batch_id')} AND ${filterIfGiven('i.buyer_stage')} AND ${filterIfGiven('i.topic_id')}`,
    ...timesOf('i'),
  },
  researchBatches: {
    select: `SELECT ${BATCH_COLUMNS} ${BATCH_FROM}`,
    where: `b.workspace_id = @workspace_id AND ${filterIfGiven('b.status')} AND ${filterIfGiven('b.topic_id')} AND ${filterIfGiven('b.buyer_stage')}`,
    ...timesOf('b'),
  },
  agentTasks: {
    select: `SELECT ${TASK_COLUMNS} FROM agent_tasks`,
    where: `workspace_id = @workspace_id AND ${filterIfGiven('status')} AND ${filterIfGiven('agent_id')}`,
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    id: 'id',
  },
} satisfies Record<string, RecordListSql>;

/** The tables an import writes whole; each record's state is its status. */
export const CONTENT_TABLES = {
  article: wholeRowTable<ArticleStatus>('articles', [
    'id', 'workspace_id', 'title', 'buyer_stage', 'status', 'topic_id', 'topic', 'keywords', 'source', 'autowrite', 'planned_for',
    'planned_time', 'written_on', 'published_on', 'research_batch_id', 'body', 'cover_image', 'slug', 'permalink', 'meta_title',
    'meta_description', 'post_url', 'created_at', 'updated_at',
  ], (row) => row.status as ArticleStatus),
  idea: wholeRowTable<null>('ideas', [
    'id', 'workspace_id', 'title', 'topic_id', 'keywords', 'buyer_stage', 'persona_name', 'research_batch_id', 'created_at', 'updated_at',
  ], () => null),
  researchBatch: wholeRowTable<ResearchBatchStatus>('research_batches', [
    'id', 'workspace_id', 'name', 'status', 'topic_id', 'buyer_stage', 'persona_name', 'source', 'agent_log', 'research_log', 'created_at', 'updated_at',
  ], (row) => row.status as ResearchBatchStatus),
  agentTask: wholeRowTable<AgentTaskStatus>('agent_tasks', [
    'id', 'workspace_id', 'agent_id', 'agent_name', 'agent_icon', 'agent_short_description', 'name', 'status', 'inputs', 'outputs',
    'input_tokens', 'output_tokens', 'total_tokens', 'execution_duration', 'started_at', 'ended_at', 'created_at', 'updated_at',
  ], (row) => row.status as AgentTaskStatus),
};

type Filters<K extends 'listArticles' | 'listIdeas' | 'listResearchBatches' | 'listAgentTasks'> = Parameters<ContentStore[K]>[0];

/** The named parameters of each list's filters. */
export const contentListParams = {
  articles: (f: Filters<'listArticles'>) => ({
    workspace_id: f.workspaceId, status: f.status ?? null, buyer_stage: f.buyerStage ?? null, topic_id: f.topicId ?? null,
  }),
  ideas: (f: Filters<'listIdeas'>) => ({
    workspace_id: f.workspaceId, research_batch_id: f.researchBatchId ?? null, buyer_stage: f.buyerStage ?? null, topic_id: f.topicId ?? null,
  }),
  researchBatches: (f: Filters<'listResearchBatches'>) => ({
    workspace_id: f.workspaceId, status: f.status ?? null, topic_id: f.topicId ?? null, buyer_stage: f.buyerStage ?? null,
  }),
  agentTasks: (f: Filters<'listAgentTasks'>) => ({ workspace_id: f.workspaceId, status: f.status ?? null, agent_id: f.agentId ?? null }),
};

/** The stored columns of each record an import writes. */
export const contentColumns = {
  article: (input: ArticleInput): Record<string, unknown> => {
    const { config, keywords, ...rest } = input;
    return {
      ...rest,
      keywords: JSON.stringify(keywords),
      autowrite: config.autowrite ? 1 : 0,
      planned_for: config.planned_for,
      planned_time: config.planned_time,
    };
  },
  idea: (input: IdeaInput): Record<string, unknown> => {
    return { ...input, keywords: JSON.stringify(input.keywords) };
  },
  researchBatch: (input: ResearchBatchInput): Record<string, unknown> => {
    return { ...input, agent_log: JSON.stringify(input.agent_log), research_log: toNullableJson(input.research_log) };
  },
  agentTask: (input: AgentTaskInput): Record<string, unknown> => {
    const { agent, usage, inputs, outputs, ...rest } = input;
    return {
      ...rest,
      agent_id: agent.id,
      agent_name: agent.name,
      agent_icon: agent.icon,
      agent_short_description: agent.short_description,
      inputs: JSON.stringify(inputs),
      outputs: toNullableJson(outputs),
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      total_tokens: usage.total_tokens,
    };
  },
};

export function summaryView(row: ArticleRow): ArticleSummary {
  const keywords = fromJson<string[]>(row.keywords);
  return {
    id: row.id,
    title: row.title,
    buyer_stage: row.buyer_stage,
    metadata: { topic: row.topic, keywords, source: row.source },
    status: row.status,
    config: { autowrite: row.autowrite === 1, planned_for: row.planned_for, planned_time: row.planned_time },
    written_on: row.written_on,
    published_on: row.published_on,
    research_batch_id: row.research_batch_id,
    topic: row.topic,
    keywords: [...keywords],
    source: row.source,
    cover_image: row.cover_image,
    slug: row.slug,
    permalink: row.permalink,
    meta_title: row.meta_title,
    meta_description: row.meta_description,
    post_url: row.post_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The full article: the summary's fields in the contract's order (`openapi/components/schemas/Article.yaml`), with `body` after `source`. */
export function articleView(row: ArticleRow): Article {
  const { cover_image, slug, permalink, meta_title, meta_description, post_url, createdAt, updatedAt, ...head } = summaryView(row);
  return { ...head, body: row.body ?? null, cover_image, slug, permalink, meta_title, meta_description, post_url, createdAt, updatedAt };
}

export function ideaView(row: IdeaRow): Idea {
  return { ...row, keywords: fromJson<string[]>(row.keywords) };
}

/** The batch as its event carries it: with its topic's name and the ideas it produced so far (`ideas`, oldest first). */
export function batchView(row: ResearchBatchRow, ideas: readonly BatchIdeaRow[]): ResearchBatch {
  const listed = ideas.map((idea) => ({ id: idea.id, title: idea.title, keywords: fromJson<string[]>(idea.keywords), buyer_stage: idea.buyer_stage }));
  return {
    id: row.id,
    name: row.name,
    ideas_count: listed.length,
    status: row.status,
    topic_id: row.topic_id,
    topic_name: row.topic_name,
    buyer_stage: row.buyer_stage,
    persona_name: row.persona_name,
    source: row.source,
    agent_log: fromJson(row.agent_log),
    research_log: fromNullableJson(row.research_log),
    ideas: listed,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function agentTaskView(row: AgentTaskRow): AgentTask {
  return {
    id: row.id,
    agent_id: row.agent_id,
    agent: { id: row.agent_id, name: row.agent_name, icon: row.agent_icon, short_description: row.agent_short_description },
    name: row.name,
    status: row.status,
    inputs: fromJson<Record<string, unknown>>(row.inputs),
    outputs: fromNullableJson<Record<string, unknown>>(row.outputs),
    usage: { input_tokens: row.input_tokens, output_tokens: row.output_tokens, total_tokens: row.total_tokens },
    execution_duration: row.execution_duration,
    started_at: row.started_at,
    ended_at: row.ended_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
