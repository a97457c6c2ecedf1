import type {
  AgentTask, AgentTaskInput, AgentTaskStatus, Article, ArticleInput, ArticleStatus, ArticleSummary, BuyerStage, ContentStore, Idea, IdeaInput,
  ResearchBatch, ResearchBatchInput, ResearchBatchStatus,
} from '../interfaces/content.js';
import type { RecordPage } from '../interfaces/list-pages.js';
import type { SaveResult } from '../interfaces/saved-rows.js';
import {
  agentTaskView, articleView, batchView, contentColumns, contentListParams, CONTENT_LISTS, CONTENT_SQL, CONTENT_TABLES, ideaView, summaryView,
  type AgentTaskRow, type ArticleRow, type BatchIdeaRow, type IdeaRow, type ResearchBatchRow,
} from '../content-rows.js';
import type { Db } from './database.js';
import { prepareRecordList } from './keyset.js';
import { prepareSave } from './saved-rows.js';
import { promised } from './promised.js';

/** Articles, ideas, research batches and agent tasks of a workspace, synchronously: for the import's transaction. */
export function createSyncContentStore(db: Db) {
  const statements = {
    getArticle: db.prepare(CONTENT_SQL.getArticle),
    getIdea: db.prepare(CONTENT_SQL.getIdea),
    getBatch: db.prepare(CONTENT_SQL.getBatch),
    batchIdeas: db.prepare(CONTENT_SQL.batchIdeas),
    getTask: db.prepare(CONTENT_SQL.getTask),
  };
  const writes = {
    article: prepareSave(db, CONTENT_TABLES.article),
    idea: prepareSave(db, CONTENT_TABLES.idea),
    researchBatch: prepareSave(db, CONTENT_TABLES.researchBatch),
    agentTask: prepareSave(db, CONTENT_TABLES.agentTask),
  };
  const lists = {
    articles: prepareRecordList(db, CONTENT_LISTS.articles),
    ideas: prepareRecordList(db, CONTENT_LISTS.ideas),
    researchBatches: prepareRecordList(db, CONTENT_LISTS.researchBatches),
    agentTasks: prepareRecordList(db, CONTENT_LISTS.agentTasks),
  };

  /** The batch as its event carries it: with its topic's name and the ideas it produced so far, oldest first. */
  function batchWithIdeas(row: ResearchBatchRow): ResearchBatch {
    return batchView(row, statements.batchIdeas.all(row.id) as BatchIdeaRow[]);
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
      return lists.articles<ArticleRow>(contentListParams.articles(filters), page).map(summaryView);
    },
    saveArticle(input: ArticleInput): SaveResult<ArticleStatus> {
      return writes.article.save(contentColumns.article(input));
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
      return lists.ideas<IdeaRow>(contentListParams.ideas(filters), page).map(ideaView);
    },
    saveIdea(input: IdeaInput): SaveResult<null> {
      return writes.idea.save(contentColumns.idea(input));
    },

    /** The batch with its topic's name and the ideas it produced so far, oldest first. */
    getResearchBatch(workspaceId: string, id: string): ResearchBatch | undefined {
      const row = statements.getBatch.get(id, workspaceId) as ResearchBatchRow | undefined;
      return row && batchWithIdeas(row);
    },
    /** One page of research batches, each with its ideas, in creation or update order. */
    listResearchBatches(
      filters: { workspaceId: string; status?: ResearchBatchStatus | undefined; topicId?: string | undefined; buyerStage?: BuyerStage | undefined },
      page: RecordPage,
    ): ResearchBatch[] {
      return lists.researchBatches<ResearchBatchRow>(contentListParams.researchBatches(filters), page).map(batchWithIdeas);
    },
    saveResearchBatch(input: ResearchBatchInput): SaveResult<ResearchBatchStatus> {
      return writes.researchBatch.save(contentColumns.researchBatch(input));
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
      return lists.agentTasks<AgentTaskRow>(contentListParams.agentTasks(filters), page).map(agentTaskView);
    },
    saveAgentTask(input: AgentTaskInput): SaveResult<AgentTaskStatus> {
      return writes.agentTask.save(contentColumns.agentTask(input));
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
