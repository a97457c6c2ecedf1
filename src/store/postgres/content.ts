import type { ContentStore, ResearchBatch } from '../interfaces/content.js';
import {
  agentTaskView, articleView, batchView, contentColumns, contentListParams, CONTENT_LISTS, CONTENT_SQL, CONTENT_TABLES, ideaView, summaryView,
  type BatchIdeaRow, type ResearchBatchRow,
} from '../content-rows.js';
import { recordListMethod } from './keyset.js';
import type { PostgresPool } from './pool.js';
import { row, rows } from './query.js';
import { postgresGetById } from './record-by-id.js';
import { postgresSave } from './saved-rows.js';

/**
 * The ideas of several research batches in one round trip (SQLite reads each batch's with
 * `CONTENT_SQL.batchIdeas`, which is cheap in process but a round trip each here), in the same
 * order within a batch.
 */
export const IDEAS_OF_BATCHES = `SELECT research_batch_id, id, title, keywords, buyer_stage FROM ideas
  WHERE research_batch_id = ANY(?) ORDER BY created_at, id`;

/** Articles, ideas, research batches and agent tasks of a workspace, in PostgreSQL: the same answers as `../sqlite/content.ts`. */
export function createPostgresContentStore(pool: PostgresPool): ContentStore {
  const articles = postgresSave(pool, CONTENT_TABLES.article, contentColumns.article);
  const researchBatches = postgresSave(pool, CONTENT_TABLES.researchBatch, contentColumns.researchBatch);
  const agentTasks = postgresSave(pool, CONTENT_TABLES.agentTask, contentColumns.agentTask);
  const batchRows = recordListMethod(pool, CONTENT_LISTS.researchBatches, contentListParams.researchBatches, (b: ResearchBatchRow) => b);

  /** Each batch as its event carries it: with its topic's name and the ideas it produced so far, oldest first. */
  async function withIdeas(batches: readonly ResearchBatchRow[]): Promise<ResearchBatch[]> {
    if (batches.length === 0) return [];
    const ideas = await rows<BatchIdeaRow & { research_batch_id: string }>(pool, IDEAS_OF_BATCHES, [batches.map((b) => b.id)]);
    const byBatch = new Map<string, BatchIdeaRow[]>(batches.map((b) => [b.id, []]));
    for (const { research_batch_id, ...idea } of ideas) byBatch.get(research_batch_id)!.push(idea);
    return batches.map((b) => batchView(b, byBatch.get(b.id)!));
  }

  return {
    getArticle: postgresGetById(pool, CONTENT_SQL.getArticle, articleView),
    listArticles: recordListMethod(pool, CONTENT_LISTS.articles, contentListParams.articles, summaryView),
    saveArticle: articles.save,
    articleStatus: articles.stateOf,

    getIdea: postgresGetById(pool, CONTENT_SQL.getIdea, ideaView),
    listIdeas: recordListMethod(pool, CONTENT_LISTS.ideas, contentListParams.ideas, ideaView),
    saveIdea: postgresSave(pool, CONTENT_TABLES.idea, contentColumns.idea).save,

    async getResearchBatch(workspaceId, id) {
      const found = await row<ResearchBatchRow>(pool, CONTENT_SQL.getBatch, [id, workspaceId]);
      return found && (await withIdeas([found]))[0];
    },
    listResearchBatches: async (filters, page) => withIdeas(await batchRows(filters, page)),
    saveResearchBatch: researchBatches.save,
    researchBatchStatus: researchBatches.stateOf,

    getAgentTask: postgresGetById(pool, CONTENT_SQL.getTask, agentTaskView),
    listAgentTasks: recordListMethod(pool, CONTENT_LISTS.agentTasks, contentListParams.agentTasks, agentTaskView),
    saveAgentTask: agentTasks.save,
    agentTaskStatus: agentTasks.stateOf,
  };
}
