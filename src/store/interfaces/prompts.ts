import type { RecordPage } from './list-pages.js';
import type { PromptRecord, PromptStatus } from './visibility-rows.js';

export interface PromptListFilters {
  workspaceId: string;
  status?: PromptStatus | undefined;
  categoryId?: string | undefined;
  /** Case-insensitive (Unicode) substring of the text. */
  q?: string | undefined;
}

/** Prompts of a workspace, read by id or in pages. */
export interface PromptStore {
  /** The prompt if it belongs to the workspace; another workspace's prompt is as absent as an unknown one. */
  get(workspaceId: string, id: string): Promise<PromptRecord | undefined>;
  /** One page of prompts in creation or update order. */
  list(filters: PromptListFilters, page: RecordPage): Promise<PromptRecord[]>;
}
