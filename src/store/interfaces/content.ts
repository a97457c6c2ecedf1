import type * as events from '../../../generated/events.js';
import type { components } from '../../../generated/openapi.js';
import type { RecordPage } from './list-pages.js';
import type { SaveResult } from './saved-rows.js';

export type Article = components['schemas']['Article'];
export type ArticleSummary = components['schemas']['ArticleSummary'];
export type ArticleStatus = components['schemas']['ArticleStatus'];
export type Idea = components['schemas']['Idea'];
export type BuyerStage = components['schemas']['BuyerStage'];

// Research batches and agent tasks are read as their webhook events carry them.
export type ResearchBatch = events.ResearchBatch;
export type ResearchBatchStatus = events.ResearchBatchStatus;
export type AgentTask = events.AgentTask;
export type AgentTaskStatus = events.AgentTaskStatus;

/** What an import writes for an article: the stored columns (topic is the label used without topic_id). */
export interface ArticleInput {
  id: string;
  workspace_id: string;
  title: string;
  buyer_stage: BuyerStage | null;
  status: ArticleStatus;
  topic_id: string | null;
  topic: string;
  keywords: string[];
  source: string;
  config: Article['config'];
  written_on: string | null;
  published_on: string | null;
  research_batch_id: string | null;
  body: string | null;
  cover_image: string | null;
  slug: string | null;
  permalink: string | null;
  meta_title: string | null;
  meta_description: string | null;
  post_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface IdeaInput {
  id: string;
  workspace_id: string;
  title: string;
  topic_id: string | null;
  keywords: string[];
  buyer_stage: BuyerStage | null;
  persona_name: string | null;
  research_batch_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ResearchBatchInput {
  id: string;
  workspace_id: string;
  name: string;
  status: ResearchBatchStatus;
  topic_id: string;
  buyer_stage: BuyerStage | null;
  persona_name: string | null;
  source: string;
  agent_log: ResearchBatch['agent_log'];
  research_log: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export type AgentTaskInput = Omit<AgentTask, 'agent_id'> & { workspace_id: string };

/** Articles, ideas, research batches and agent tasks of a workspace. */
export interface ContentStore {
  /** The article with its body, if it belongs to the workspace. */
  getArticle(workspaceId: string, id: string): Promise<Article | undefined>;
  /** One page of articles (without body) in creation or update order. */
  listArticles(
    filters: { workspaceId: string; status?: ArticleStatus | undefined; buyerStage?: BuyerStage | undefined; topicId?: string | undefined },
    page: RecordPage,
  ): Promise<ArticleSummary[]>;
  saveArticle(input: ArticleInput): Promise<SaveResult<ArticleStatus>>;
  articleStatus(id: string): Promise<ArticleStatus | undefined>;

  getIdea(workspaceId: string, id: string): Promise<Idea | undefined>;
  listIdeas(
    filters: { workspaceId: string; researchBatchId?: string | undefined; buyerStage?: BuyerStage | undefined; topicId?: string | undefined },
    page: RecordPage,
  ): Promise<Idea[]>;
  saveIdea(input: IdeaInput): Promise<SaveResult<null>>;

  /** The batch with its topic's name and the ideas it produced so far, oldest first. */
  getResearchBatch(workspaceId: string, id: string): Promise<ResearchBatch | undefined>;
  /** One page of research batches, each with its ideas, in creation or update order. */
  listResearchBatches(
    filters: { workspaceId: string; status?: ResearchBatchStatus | undefined; topicId?: string | undefined; buyerStage?: BuyerStage | undefined },
    page: RecordPage,
  ): Promise<ResearchBatch[]>;
  saveResearchBatch(input: ResearchBatchInput): Promise<SaveResult<ResearchBatchStatus>>;
  researchBatchStatus(id: string): Promise<ResearchBatchStatus | undefined>;

  getAgentTask(workspaceId: string, id: string): Promise<AgentTask | undefined>;
  /** One page of agent tasks in creation or update order. */
  listAgentTasks(
    filters: { workspaceId: string; status?: AgentTaskStatus | undefined; agentId?: string | undefined },
    page: RecordPage,
  ): Promise<AgentTask[]>;
  saveAgentTask(input: AgentTaskInput): Promise<SaveResult<AgentTaskStatus>>;
  agentTaskStatus(id: string): Promise<AgentTaskStatus | undefined>;
}
