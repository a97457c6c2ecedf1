import type { CitedPageSink } from '../../../import-engine/cited-page-rollup.js';
import type { RecordIo } from '../../../import-engine/record-io.js';
import type { SavedRow, SavedRows } from '../../../import-engine/saved-rows.js';
import type { WholeRowTable } from '../../whole-row-saves.js';
import type { RollupSink } from '../../../import-engine/snapshot-rollups.js';
import { COMPETITORS } from '../../../import-engine/tables/visibility.js';
import { IQ_SQL, IQ_TABLE } from '../../iq-rows.js';
import { WORKSPACE_PLANS, WORKSPACE_PROFILES, type WorkspaceRow } from '../../../import-engine/tables/workspace.js';
import type { Db } from '../database.js';
import { createPromptRunningTotals } from '../prompt-running-totals.js';
import { sqliteSavedRows } from '../saved-rows.js';
import { createCitedPageSink } from '../visibility-cited-pages.js';
import { createCompetitorStatements, createPromptStatements, createSnapshotStatements } from '../visibility-import.js';

/** The one row of the workspace in a table keyed by workspace, read and replaced whole. */
function workspaceRow(db: Db, { table, columns }: WholeRowTable<unknown>, workspaceId: string): WorkspaceRow {
  const get = db.prepare(`SELECT ${columns.join(', ')} FROM ${table} WHERE workspace_id = ?`);
  const put = db.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})
     ON CONFLICT (workspace_id) DO UPDATE SET ${columns.filter((c) => c !== 'workspace_id').map((c) => `${c} = excluded.${c}`).join(', ')}`,
  );
  return {
    get: () => get.get(workspaceId) as SavedRow | undefined,
    put: (row) => {
      put.run(row);
    },
  };
}

/** The snapshot rollups: the prompt's running totals, the workspace's daily rollups and the prompt's newest collection time. */
function rollupSink(db: Db, workspaceId: string, statements: ReturnType<typeof createSnapshotStatements>): RollupSink {
  const running = createPromptRunningTotals(db);
  return {
    add(changes) {
      running.days.apply(changes.promptDays);
      running.platforms.apply(changes.platforms);
      for (const w of changes.workspaceDaily) {
        statements.addWorkspaceDaily.run(workspaceId, w.day, w.platform, w.total, w.mentioned, w.cited);
        if (w.total < 0) statements.pruneWorkspaceDaily.run(workspaceId, w.day, w.platform);
      }
      running.competitors.apply(changes.competitors);
      for (const w of changes.workspaceMentions) {
        statements.addWorkspaceMentions.run(workspaceId, w.day, w.competitorId, w.mentions);
        if (w.mentions < 0) statements.pruneWorkspaceMentions.run(workspaceId, w.day, w.competitorId);
      }
      for (const promptId of changes.touchedPrompts) statements.touchPrompt.run(promptId, promptId);
    },
    settle: () => running.settle(),
  };
}

/** The tables of one workspace for one import on SQLite: every call runs its statement at once. */
export function createSqliteRecordIo(db: Db, workspaceId: string): RecordIo {
  const saved = new Map<string, SavedRows>();
  const snapshots = createSnapshotStatements(db);
  const competitorStatements = createCompetitorStatements(db);
  const prompts = createPromptStatements(db);
  const iqRows = sqliteSavedRows(db, IQ_TABLE);
  let rollups: RollupSink | undefined;
  let citedPages: CitedPageSink | undefined;
  const clearDefault = db.prepare(IQ_SQL.clearDefault);
  return {
    saved(table: WholeRowTable<unknown>): SavedRows {
      let rows = saved.get(table.table);
      if (!rows) saved.set(table.table, (rows = sqliteSavedRows(db, table)));
      return rows;
    },
    prompts: {
      stored: (id) => prompts.get.get(id) as SavedRow | undefined,
      write: (row, inserted) => {
        (inserted ? prompts.insert : prompts.update).run(row);
      },
    },
    competitors: {
      ...sqliteSavedRows(db, COMPETITORS),
      nameKeys: () => new Map(competitorStatements.listNameKeys.all(workspaceId) as [string, string][]),
      namedLike: (nameKey, exceptId) => competitorStatements.namedLike.get(workspaceId, nameKey, exceptId) as [string, string] | undefined,
      mentionedDays: (id) => competitorStatements.mentionedDays.get(workspaceId, id) as number,
    },
    iqRecords: {
      ...iqRows,
      clearDefault: (type, exceptId) => {
        clearDefault.run(workspaceId, type, exceptId);
      },
    },
    snapshots: {
      latestUpdate: () => snapshots.latestUpdate.get(workspaceId) as string | null,
      stored: (id) => snapshots.get.get(id) as ReturnType<RecordIo['snapshots']['stored']>,
      insert: (row) => {
        snapshots.insert.run(...row);
      },
      update: (row) => {
        const [id, , ...values] = row;
        snapshots.update.run(...values, id);
      },
      remove: (id) => {
        snapshots.remove.run(id);
      },
    },
    // Made with the first answer: most imports have none.
    get rollups() {
      return (rollups ??= rollupSink(db, workspaceId, snapshots));
    },
    get citedPages() {
      return (citedPages ??= createCitedPageSink(db, workspaceId));
    },
    workspaceProfile: workspaceRow(db, WORKSPACE_PROFILES, workspaceId),
    workspacePlan: workspaceRow(db, WORKSPACE_PLANS, workspaceId),
  };
}
