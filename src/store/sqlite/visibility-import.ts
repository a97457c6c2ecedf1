import type { Db } from './database.js';

// The statements the visibility record types write with (`../../import-engine/records/`), through the
// import's SQLite tables (`import/record-io.ts`). Returned as prepared statements, not wrapped,
// because the snapshot writer runs them once per line of files of millions of lines.

/** Tracked competitors, beyond their rows. */
export function createCompetitorStatements(db: Db) {
  const namedLike = db.prepare('SELECT id, name FROM competitors WHERE workspace_id = ? AND name_key = ? AND id <> ?').raw();
  const listNameKeys = db.prepare('SELECT name_key, id FROM competitors WHERE workspace_id = ?').raw();
  // The workspace rollup keeps a row per day with mentions (rows that fall to 0 are deleted).
  const mentionedDays = db.prepare('SELECT count(*) FROM workspace_competitor_daily WHERE workspace_id = ? AND competitor_id = ?').pluck();
  return { namedLike, listNameKeys, mentionedDays };
}

/** Prompts. */
export function createPromptStatements(db: Db) {
  const get = db.prepare('SELECT id, workspace_id, text, category_id, status, created_at, updated_at FROM prompts WHERE id = ?');
  // Snapshots may come before their prompt in the file: pick up the newest one already written.
  const insert = db.prepare(
    `INSERT INTO prompts (id, workspace_id, text, category_id, status, created_at, updated_at, last_collected_ms)
     VALUES (@id, @workspace_id, @text, @category_id, @status, @created_at, @updated_at, (SELECT max(collected_ms) FROM snapshots WHERE prompt_id = @id))`,
  );
  const update = db.prepare('UPDATE prompts SET text = @text, category_id = @category_id, status = @status, created_at = @created_at, updated_at = @updated_at WHERE id = @id');
  return { get, insert, update };
}

/** Snapshots, the workspace rollups and the prompt's newest collection time (the prompt's running totals: prompt-running-totals.ts). */
export function createSnapshotStatements(db: Db) {
  const get = db
    .prepare('SELECT prompt_id, platform, collected_ms, mentioned, cited, competitors, citations, answer FROM snapshots WHERE id = ?')
    .raw();
  const insert = db.prepare(
    `INSERT INTO snapshots (id, workspace_id, prompt_id, platform, collected_ms, day, mentioned, cited, competitors, citations, answer, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const update = db.prepare(
    `UPDATE snapshots SET prompt_id = ?, platform = ?, collected_ms = ?, day = ?, mentioned = ?, cited = ?, competitors = ?,
     citations = ?, answer = ?, updated_at = ? WHERE id = ?`,
  );
  // The newest update time of the workspace's answers (the end of snapshots_by_update).
  const latestUpdate = db.prepare('SELECT max(updated_at) FROM snapshots WHERE workspace_id = ?').pluck();
  const addWorkspaceDaily = db.prepare(
    `INSERT INTO workspace_daily (workspace_id, day, platform, total, mentioned, cited) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, day, platform) DO UPDATE SET
       total = total + excluded.total, mentioned = mentioned + excluded.mentioned, cited = cited + excluded.cited`,
  );
  const pruneWorkspaceDaily = db.prepare('DELETE FROM workspace_daily WHERE workspace_id = ? AND day = ? AND platform = ? AND total = 0');
  const addWorkspaceMentions = db.prepare(
    `INSERT INTO workspace_competitor_daily (workspace_id, day, competitor_id, mentions) VALUES (?, ?, ?, ?)
     ON CONFLICT (workspace_id, day, competitor_id) DO UPDATE SET mentions = mentions + excluded.mentions`,
  );
  const pruneWorkspaceMentions = db.prepare(
    'DELETE FROM workspace_competitor_daily WHERE workspace_id = ? AND day = ? AND competitor_id = ? AND mentions = 0',
  );
  const touchPrompt = db.prepare('UPDATE prompts SET last_collected_ms = (SELECT max(collected_ms) FROM snapshots WHERE prompt_id = ?) WHERE id = ?');
  const remove = db.prepare('DELETE FROM snapshots WHERE id = ?');
  return { get, insert, update, latestUpdate, remove, addWorkspaceDaily, pruneWorkspaceDaily, addWorkspaceMentions, pruneWorkspaceMentions, touchPrompt };
}
