// Statements both databases run as written, word for word: the SQLite store
// (sqlite/workspace-profile.ts) and the PostgreSQL one (postgres/workspace-profile.ts) share them.
// Adding a batch of request counts differs (SQLite reads a JSON array; PostgreSQL unnests arrays
// and sums repeated days first): each keeps its own.

export const WORKSPACE_PROFILE_SQL = {
  getProfile: 'SELECT id, workspace_id, brand_name, domains, tracked_platforms, collection_cadence FROM workspace_profiles WHERE workspace_id = ?',
  upsertProfile: `INSERT INTO workspace_profiles (workspace_id, id, brand_name, domains, tracked_platforms, collection_cadence)
    VALUES (@workspace_id, @id, @brand_name, @domains, @tracked_platforms, @collection_cadence)
    ON CONFLICT (workspace_id) DO UPDATE SET id = excluded.id, brand_name = excluded.brand_name,
      domains = excluded.domains, tracked_platforms = excluded.tracked_platforms,
      collection_cadence = excluded.collection_cadence`,
  getPlan: `SELECT id, workspace_id, name, tracked_prompts_limit, articles_per_month_limit, period_start, period_end
    FROM workspace_plans WHERE workspace_id = ?`,
  upsertPlan: `INSERT INTO workspace_plans (workspace_id, id, name, tracked_prompts_limit, articles_per_month_limit, period_start, period_end)
    VALUES (@workspace_id, @id, @name, @tracked_prompts_limit, @articles_per_month_limit, @period_start, @period_end)
    ON CONFLICT (workspace_id) DO UPDATE SET id = excluded.id, name = excluded.name,
      tracked_prompts_limit = excluded.tracked_prompts_limit, articles_per_month_limit = excluded.articles_per_month_limit,
      period_start = excluded.period_start, period_end = excluded.period_end`,
  countPrompts: 'SELECT count(*) FROM prompts WHERE workspace_id = ?',
  /** written_on is RFC 3339 UTC text, so a half-open text range selects whole UTC days. */
  countArticlesWritten: 'SELECT count(*) FROM articles WHERE workspace_id = ? AND written_on >= ? AND written_on < ?',
  sumApiRequests: 'SELECT coalesce(sum(requests), 0) FROM api_request_daily WHERE workspace_id = ? AND day BETWEEN ? AND ?',
  listApiRequestsByDay: 'SELECT day, requests FROM api_request_daily WHERE workspace_id = ? AND day BETWEEN ? AND ? ORDER BY day',
} as const;
