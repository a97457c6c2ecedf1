// Statements both databases run as written, word for word: the SQLite store (sqlite/webhooks.ts)
// and the PostgreSQL one (postgres/webhooks.ts) share them. The update (a flag that is 0/1 in
// SQLite and a boolean in PostgreSQL) and the list's pages stay with each.

export const WEBHOOK_SQL = {
  insert: `INSERT INTO webhooks (id, workspace_id, url, name, description, events, secret, previous_secret,
      previous_secret_expires_at, enabled, consecutive_failures, disabled_at, created_by, created_at, updated_at)
    VALUES (@id, @workspace_id, @url, @name, @description, @events, @secret, @previous_secret,
      @previous_secret_expires_at, @enabled, @consecutive_failures, @disabled_at, @created_by, @created_at, @updated_at)`,
  /** The workspace's webhooks, enabled or not: what the cap counts. */
  count: 'SELECT count(*) FROM webhooks WHERE workspace_id = @workspace_id',
  get: 'SELECT * FROM webhooks WHERE workspace_id = ? AND id = ?',
  delete: 'DELETE FROM webhooks WHERE workspace_id = ? AND id = ?',
  /** Enables the webhook and resets its failure count; its updated_at moves only when that changes something. */
  enable: `UPDATE webhooks SET enabled = 1, consecutive_failures = 0, disabled_at = NULL,
      updated_at = CASE WHEN enabled = 1 AND consecutive_failures = 0 THEN updated_at ELSE @now END
    WHERE workspace_id = @workspace_id AND id = @id`,
  /** Disables the webhook, keeping the time it was first disabled. */
  disable: `UPDATE webhooks SET enabled = 0, disabled_at = COALESCE(disabled_at, @now),
      updated_at = CASE WHEN enabled = 0 THEN updated_at ELSE @now END
    WHERE workspace_id = @workspace_id AND id = @id`,
  /**
   * A new secret; with a grace period, the secret it replaces (read by this statement, never by its
   * caller: two rotations at once each keep the other's secret as the previous one, none is lost).
   */
  rotate: `UPDATE webhooks SET previous_secret = CASE WHEN @keep_previous = 1 THEN secret ELSE NULL END,
      previous_secret_expires_at = @previous_secret_expires_at, secret = @secret, updated_at = @now
    WHERE workspace_id = @workspace_id AND id = @id`,
} as const;
