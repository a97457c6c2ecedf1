import type {
  AgentTask, AgentTaskInput, AgentTaskStatus, Article, ArticleInput, ArticleStatus, ArticleSummary, BuyerStage, ContentStore, Idea, IdeaInput,
  ResearchBatch, ResearchBatchInput, ResearchBatchStatus,
} from '../interfaces/content.js';
import type { RecordPage } from '../interfaces/list-pages.js';
import type { SaveResult } from '../interfaces/saved-rows.js';
import type { Db } from './database.js';
import { prepareRecordList } from './keyset.js';
import { fromJson, fromNullableJson, prepareSave } from './saved-rows.js';
import { AGENT_TASKS, ARTICLES, IDEAS, RESEARCH_BATCHES, agentTaskRow, articleRow, ideaRow, researchBatchRow } from '../import/tables/content.js';
import { promised } from './promised.js';

interface ArticleRow {
  id: string;
  title: string;
  buyer_stage: BuyerStage | null;
  status: ArticleStatus;
  topic: string;
  keywords: string;
  source: string;
  autowrite: 0 | 1;
  planned_for: string | null;
  planned_time: string | null;
  written_on: string | null;
  published_on: string | null;
  research_batch_id: string | null;
  body?: string | null;
  cover_image: string | null;
  slug: string | null;
  permalink: string | null;
  meta_title: string | null;
  meta_description: string | null;
  post_url: string | null;
  created_at: string;
  updated_at: string;
}

interface IdeaRow {
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

interface ResearchBatchRow {
  id: string;
  name: string;
  status: ResearchBatchStatus;
  topic_id: string;
  topic_name: string;
  buyer_stage: BuyerStage | null;
  persona_name: string | null;
  source: string;
  agent_log: string;
  research_log: string | null;
  created_at: string;
  updated_at: string;
}

interface AgentTaskRow {
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

/** The time and id columns of a list over the table aliased `alias`. */
function timesOf(alias: string) {
  return { createdAt: `${alias}.created_at`, updatedAt: `${alias}.updated_at`, id: `${alias}.id` };
}

function summaryView(row: ArticleRow): ArticleSummary {
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
function articleView(row: ArticleRow): Article {
  const { cover_image, slug, permalink, meta_title, meta_description, post_url, createdAt, updatedAt, ...head } = summaryView(row);
  return { ...head, body: row.body ?? null, cover_image, slug, permalink, meta_title, meta_description, post_url, createdAt, updatedAt };
}

function ideaView(row: IdeaRow): Idea {
  return { ...row, keywords: fromJson<string[]>(row.keywords) };
}

function agentTaskView(row: AgentTaskRow): AgentTask {
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

/** Articles, ideas, research batches and agent tasks of a workspace, synchronously: for the import's transaction. */
export function createSyncContentStore(db: Db) {
  const statements = {
    getArticle: db.prepare(`SELECT ${ARTICLE_SUMMARY_COLUMNS}, a.body ${ARTICLE_FROM} WHERE a.id = ? AND a.workspace_id = ?`),
    getIdea: db.prepare(`SELECT ${IDEA_COLUMNS} ${IDEA_FROM} WHERE i.id = ? AND i.workspace_id = ?`),
    getBatch: db.prepare(`SELECT ${BATCH_COLUMNS} ${BATCH_FROM} WHERE b.id = ? AND b.workspace_id = ?`),
    batchIdeas: db.prepare('SELECT id, title, keywords, buyer_stage FROM ideas WHERE research_batch_id = ? ORDER BY created_at, id'),
    getTask: db.prepare(`SELECT ${TASK_COLUMNS} FROM agent_tasks WHERE id = ? AND workspace_id = ?`),
  };
  const writes = {
    article: prepareSave(db, ARTICLES),
    idea: prepareSave(db, IDEAS),
    researchBatch: prepareSave(db, RESEARCH_BATCHES),
    agentTask: prepareSave(db, AGENT_TASKS),
  };
  const lists = {
    articles: prepareRecordList(db, {
      select: `SELECT ${ARTICLE_SUMMARY_COLUMNS} ${ARTICLE_FROM}`,
      where: `a.workspace_id = @workspace_id AND (@status IS NULL OR a.status = @status)
        AND (@buyer_stage IS NULL OR a.buyer_stage = @buyer_stage) AND (@topic_id IS NULL OR a.topic_id = @topic_id)`,
      ...timesOf('a'),
    }),
    ideas: prepareRecordList(db, {
      select: `SELECT ${IDEA_COLUMNS} ${IDEA_FROM}`,
      where: `i.workspace_id = @workspace_id AND (@research_batch_id IS NULL OR i.research_batch_id = @research_batch_id)
        AND (@buyer_stage IS NULL OR i.buyer_stage = @buyer_stage) AND (@topic_id IS NULL OR i.topic_id = @topic_id)`,
      ...timesOf('i'),
    }),
    researchBatches: prepareRecordList(db, {
      select: `SELECT ${BATCH_COLUMNS} ${BATCH_FROM}`,
      where: `b.workspace_id = @workspace_id AND (@status IS NULL OR b.status = @status)
        AND (@topic_id IS NULL OR b.topic_id = @topic_id) AND (@buyer_stage IS NULL OR b.buyer_stage = @buyer_stage)`,
      ...timesOf('b'),
    }),
    agentTasks: prepareRecordList(db, {
      select: `SELECT ${TASK_COLUMNS} FROM agent_tasks`,
      where: 'workspace_id = @workspace_id AND (@status IS NULL OR status = @status) AND (@agent_id IS NULL OR agent_id = @agent_id)',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
      id: 'id',
    }),
  };

  /** The batch as its event carries it: with its topic's name and the ideas it produced so far, oldest first. */
  function batchView(row: ResearchBatchRow): ResearchBatch {
    const ideas = (statements.batchIdeas.all(row.id) as Array<{ id: string; title: string; keywords: string; buyer_stage: BuyerStage | null }>)
      .map((idea) => ({ id: idea.id, title: idea.title, keywords: fromJson<string[]>(idea.keywords), buyer_stage: idea.buyer_stage }));
    return {
      id: row.id,
      name: row.name,
      ideas_count: ideas.length,
      status: row.status,
      topic_id: row.topic_id,
      topic_name: row.topic_name,
      buyer_stage: row.buyer_stage,
      persona_name: row.persona_name,
      source: row.source,
      agent_log: fromJson(row.agent_log),
      research_log: fromNullableJson(row.research_log),
      ideas,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  return {
    /** The article with its body, if it belongs to the workspace. */
    getArticle(workspaceId: string, id: string): Article | undefined {
      const row = statements.getArticle.get(id, workspaceId) as ArticleRow | undefined;
      return row && articleView(row);
    },
    /** One page of articles (without body) in creation or update order. */
    listArticles(
      filters: { workspaceId: string; status?: ArticleStatus | undefined; buyerStage?: BuyerStage | undefined; topicId?: string | undefined },
      page: RecordPage,
    ): ArticleSummary[] {
      return lists.articles<ArticleRow>({
        workspace_id: filters.workspaceId,
        status: filters.status ?? null,
        buyer_stage: filters.buyerStage ?? null,
        topic_id: filters.topicId ?? null,
      }, page).map(summaryView);
    },
    saveArticle(input: ArticleInput): SaveResult<ArticleStatus> {
      return writes.article.save(articleRow(input));
    },
    articleStatus(id: string): ArticleStatus | undefined {
      return writes.article.stateOf(id);
    },

    getIdea(workspaceId: string, id: string): Idea | undefined {
      const row = statements.getIdea.get(id, workspaceId) as IdeaRow | undefined;
      return row && ideaView(row);
    },
    listIdeas(
      filters: { workspaceId: string; researchBatchId?: string | undefined; buyerStage?: BuyerStage | undefined; topicId?: string | undefined },
      page: RecordPage,
    ): Idea[] {
      return lists.ideas<IdeaRow>({
        workspace_id: filters.workspaceId,
        research_batch_id: filters.researchBatchId ?? null,
        buyer_stage: filters.buyerStage ?? null,
        topic_id: filters.topicId ?? null,
      }, page).map(ideaView);
    },
    saveIdea(input: IdeaInput): SaveResult<null> {
      return writes.idea.save(ideaRow(input));
    },

    /** The batch with its topic's name and the ideas it produced so far, oldest first. */
    getResearchBatch(workspaceId: string, id: string): ResearchBatch | undefined {
      const row = statements.getBatch.get(id, workspaceId) as ResearchBatchRow | undefined;
      return row && batchView(row);
    },
    /** One page of research batches, each with its ideas, in creation or update order. */
    listResearchBatches(
      filters: { workspaceId: string; status?: ResearchBatchStatus | undefined; topicId?: string | undefined; buyerStage?: BuyerStage | undefined },
      page: RecordPage,
    ): ResearchBatch[] {
      return lists.researchBatches<ResearchBatchRow>({
        workspace_id: filters.workspaceId,
        status: filters.status ?? null,
        topic_id: filters.topicId ?? null,
        buyer_stage: filters.buyerStage ?? null,
      }, page).map(batchView);
    },
    saveResearchBatch(input: ResearchBatchInput): SaveResult<ResearchBatchStatus> {
      return writes.researchBatch.save(researchBatchRow(input));
    },
    researchBatchStatus(id: string): ResearchBatchStatus | undefined {
      return writes.researchBatch.stateOf(id);
    },

    getAgentTask(workspaceId: string, id: string): AgentTask | undefined {
      const row = statements.getTask.get(id, workspaceId) as AgentTaskRow | undefined;
      return row && agentTaskView(row);
    },
    /** One page of agent tasks in creation or update order. */
    listAgentTasks(
      filters: { workspaceId: string; status?: AgentTaskStatus | undefined; agentId?: string | undefined },
      page: RecordPage,
    ): AgentTask[] {
      return lists.agentTasks<AgentTaskRow>({
        workspace_id: filters.workspaceId,
        status: filters.status ?? null,
        agent_id: filters.agentId ?? null,
      }, page).map(agentTaskView);
    },
    saveAgentTask(input: AgentTaskInput): SaveResult<AgentTaskStatus> {
      return writes.agentTask.save(agentTaskRow(input));
    },
    agentTaskStatus(id: string): AgentTaskStatus | undefined {
      return writes.agentTask.stateOf(id);
    },
  };
}

export type SyncContentStore = ReturnType<typeof createSyncContentStore>;

export function createContentStore(db: Db): ContentStore {
  return promised(createSyncContentStore(db));
}
