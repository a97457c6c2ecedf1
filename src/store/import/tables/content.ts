// The stored form of the content library's records (migration 021): what the import and the
// content store write, the same in every database.
import type {
  AgentTaskInput, AgentTaskStatus, ArticleInput, ArticleStatus, IdeaInput, ResearchBatchInput, ResearchBatchStatus,
} from '../../interfaces/content.js';
import { nullableJson, type SavedRow, type SavedTable } from '../saved-rows.js';

export const ARTICLES: SavedTable<ArticleStatus> = {
  table: 'articles',
  columns: [
    'id', 'workspace_id', 'title', 'buyer_stage', 'status', 'topic_id', 'topic', 'keywords', 'source', 'autowrite', 'planned_for',
    'planned_time', 'written_on', 'published_on', 'research_batch_id', 'body', 'cover_image', 'slug', 'permalink', 'meta_title',
    'meta_description', 'post_url', 'created_at', 'updated_at',
  ],
  state: (row) => row.status as ArticleStatus,
};

export const IDEAS: SavedTable<null> = {
  table: 'ideas',
  columns: ['id', 'workspace_id', 'title', 'topic_id', 'keywords', 'buyer_stage', 'persona_name', 'research_batch_id', 'created_at', 'updated_at'],
  state: () => null,
};

export const RESEARCH_BATCHES: SavedTable<ResearchBatchStatus> = {
  table: 'research_batches',
  columns: [
    'id', 'workspace_id', 'name', 'status', 'topic_id', 'buyer_stage', 'persona_name', 'source', 'agent_log', 'research_log',
    'created_at', 'updated_at',
  ],
  state: (row) => row.status as ResearchBatchStatus,
};

export const AGENT_TASKS: SavedTable<AgentTaskStatus> = {
  table: 'agent_tasks',
  columns: [
    'id', 'workspace_id', 'agent_id', 'agent_name', 'agent_icon', 'agent_short_description', 'name', 'status', 'inputs', 'outputs',
    'input_tokens', 'output_tokens', 'total_tokens', 'execution_duration', 'started_at', 'ended_at', 'created_at', 'updated_at',
  ],
  state: (row) => row.status as AgentTaskStatus,
};

export function articleRow(input: ArticleInput): SavedRow {
  const { config, keywords, ...rest } = input;
  return {
    ...rest,
    keywords: JSON.stringify(keywords),
    autowrite: config.autowrite ? 1 : 0,
    planned_for: config.planned_for,
    planned_time: config.planned_time,
  };
}

export function ideaRow(input: IdeaInput): SavedRow {
  return { ...input, keywords: JSON.stringify(input.keywords) };
}

export function researchBatchRow(input: ResearchBatchInput): SavedRow {
  return { ...input, agent_log: JSON.stringify(input.agent_log), research_log: nullableJson(input.research_log) };
}

export function agentTaskRow(input: AgentTaskInput): SavedRow {
  const { agent, usage, inputs, outputs, ...rest } = input;
  return {
    ...rest,
    agent_id: agent.id,
    agent_name: agent.name,
    agent_icon: agent.icon,
    agent_short_description: agent.short_description,
    inputs: JSON.stringify(inputs),
    outputs: nullableJson(outputs),
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens,
  };
}
