// Statements both databases run as written, word for word: the SQLite store
// (sqlite/webhook-deliveries.ts) and the PostgreSQL one (postgres/webhook-deliveries.ts) share
// them. The claim, the outcome of an attempt and the failure count lock differently in each, and
// the list's NULL tests need types in PostgreSQL: those stay with each.

export const WEBHOOK_DELIVERY_SQL = {
  insertAttempt: `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, outcome, http_status, response_time_ms, response_body, error)
    VALUES (@delivery_id, @attempt, @started_at, @outcome, @http_status, @response_time_ms, @response_body, @error)`,
  resetFailures: 'UPDATE webhooks SET consecutive_failures = 0 WHERE id = ? AND consecutive_failures <> 0',
  /** Shutdown: the attempt was abandoned before an outcome; it resumes under the same number. */
  release: `UPDATE webhook_deliveries SET lease_until = @expired
    WHERE id = @id AND lease_token = @lease_token AND status = 'pending'`,
  get: 'SELECT * FROM webhook_deliveries WHERE id = ? AND webhook_id = ? AND workspace_id = ?',
  getById: 'SELECT * FROM webhook_deliveries WHERE id = ?',
  /**
   * A completed delivery starts a new round of attempts; a pending one just becomes due now.
   * A failed one is marked so that its success shows as `recovered`.
   */
  requeue: `UPDATE webhook_deliveries
    SET requeued = CASE status WHEN 'failed' THEN 1 WHEN 'pending' THEN requeued ELSE 0 END,
        attempt = CASE status WHEN 'pending' THEN attempt ELSE 0 END,
        completed_at = CASE status WHEN 'pending' THEN completed_at ELSE NULL END,
        status = 'pending',
        next_attempt_at = @now
    WHERE id = @id AND webhook_id = @webhook_id AND workspace_id = @workspace_id`,
  recoverFailedSince: `UPDATE webhook_deliveries
    SET status = 'pending', requeued = 1, attempt = 0, completed_at = NULL, next_attempt_at = @now
    WHERE webhook_id = @webhook_id AND workspace_id = @workspace_id AND status = 'failed' AND created_at >= @since`,
  attempts: 'SELECT * FROM webhook_delivery_attempts WHERE delivery_id = ? ORDER BY id',
  countPending: "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'",
} as const;
