// What the import's record types read and write, as each database gives it to them inside the
// import's transaction: synchronous calls, so a record type's rules are written once for every
// database. SQLite answers each call with a statement; PostgreSQL from what it read for the batch
// of lines beforehand, writing the batch's changes afterwards (`src/store/postgres/import/`, README.md).
import type { CitedPageSink } from './cited-page-rollup.js';
import type { WholeRowTable } from '../store/whole-row-saves.js';
import type { SavedRows } from './saved-rows.js';
import type { RollupSink } from './snapshot-rollups.js';
import type { WorkspaceRow } from './tables/workspace.js';

/** A snapshot row as compared with an imported record: every column the record sets, without its id, workspace and day. */
export type StoredSnapshot = readonly [
  prompt_id: string, platform: string, collected_ms: number, mentioned: number, cited: number, competitors: string, citations: string, answer: string,
];

/** A whole snapshot row, in the table's column order. */
export type SnapshotRow = readonly [
  id: string, workspace_id: string, prompt_id: string, platform: string, collected_ms: number, day: number, mentioned: number, cited: number,
  competitors: string, citations: string, answer: string, updated_at: string,
];

export const SNAPSHOT_COLUMNS = [
  'id', 'workspace_id', 'prompt_id', 'platform', 'collected_ms', 'day', 'mentioned', 'cited', 'competitors', 'citations', 'answer', 'updated_at',
] as const;

export interface SnapshotRows {
  /** The newest `updated_at` of the workspace's answers, null when it has none. */
  latestUpdate(): string | null;
  stored(id: string): StoredSnapshot | undefined;
  insert(row: SnapshotRow): void;
  update(row: SnapshotRow): void;
  remove(id: string): void;
}

export interface CompetitorRows extends SavedRows {
  /** Every competitor of the workspace: name key → id. */
  nameKeys(): Map<string, string>;
  /** The workspace's other competitor with this name key, as [id, name]. */
  namedLike(nameKey: string, exceptId: string): readonly [string, string] | undefined;
  /** Days of the workspace's rollup on which answers name the competitor. */
  mentionedDays(id: string): number;
}

export interface IqRows extends SavedRows {
  /** Takes the default flag off every other record of this kind in the workspace. */
  clearDefault(type: string, exceptId: string): void;
}

/** The tables of one workspace, as one import reads and writes them. */
export interface RecordIo {
  /** A table whose rows are replaced whole (`../whole-row-saves.ts`), other than those below. */
  saved(table: WholeRowTable<unknown>): SavedRows;
  /** Prompts; an inserted prompt takes the newest collection time of the answers already written for it. */
  prompts: SavedRows;
  competitors: CompetitorRows;
  iqRecords: IqRows;
  snapshots: SnapshotRows;
  rollups: RollupSink;
  citedPages: CitedPageSink;
  workspaceProfile: WorkspaceRow;
  workspacePlan: WorkspaceRow;
}
