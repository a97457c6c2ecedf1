import type { WebhookRow, WebhookStore } from '../interfaces/webhooks.js';
import type { PostgresPool } from './pool.js';
import { row, rows, run } from './query.js';
import { WEBHOOK_SQL } from '../webhook-statements.js';
import { prepareCappedInsert } from './capped-insert.js';

// The statements of ../sqlite/webhooks.ts that differ from it (the rest are ../webhook-statements.ts), each saying how.
const SQL = {
  ...WEBHOOK_SQL,
  // The list in (created_at, id) order; the row-value comparison seeks webhooks_by_workspace.
  firstPage: 'SELECT * FROM webhooks WHERE workspace_id = @workspace_id ORDER BY created_at, id LIMIT @limit',
  pageAfter: `SELECT * FROM webhooks WHERE workspace_id = @workspace_id AND (created_at, id) > (@after_created_at, @after_id)
    ORDER BY created_at, id LIMIT @limit`,
  // `description` may be set to null, so it carries its own flag: a boolean here, where SQLite takes 0/1.
  update: `UPDATE webhooks SET url = COALESCE(@url, url), name = COALESCE(@name, name),
      description = CASE WHEN @set_description::boolean THEN @description ELSE description END,
      events = COALESCE(@events, events), updated_at = @now
    WHERE workspace_id = @workspace_id AND id = @id`,
};

/** The subscriptions of the administration API over PostgreSQL. Every statement is scoped by workspace. */
export function createPostgresWebhookStore(pool: PostgresPool): WebhookStore {
  return {
    insertUnderCap: prepareCappedInsert<WebhookRow>(pool, SQL.count, SQL.insert),
    get(workspaceId, id) {
      return row<WebhookRow>(pool, SQL.get, [workspaceId, id]);
    },
    list(workspaceId, limit, position) {
      if (position === undefined) return rows<WebhookRow>(pool, SQL.firstPage, { workspace_id: workspaceId, limit });
      return rows<WebhookRow>(pool, SQL.pageAfter, {
        workspace_id: workspaceId,
        limit,
        after_created_at: position[0],
        after_id: position[1],
      });
    },
    async update(workspaceId, id, changes, now) {
      const changed = await run(pool, SQL.update, {
        workspace_id: workspaceId,
        id,
        url: changes.url ?? null,
        name: changes.name ?? null,
        set_description: changes.description !== undefined,
        description: changes.description ?? null,
        events: changes.events ?? null,
        now,
      });
      return changed === 1;
    },
    async delete(workspaceId, id) {
      return (await run(pool, SQL.delete, [workspaceId, id])) === 1;
    },
    async enable(workspaceId, id, now) {
      return (await run(pool, SQL.enable, { workspace_id: workspaceId, id, now })) === 1;
    },
    async disable(workspaceId, id, now) {
      return (await run(pool, SQL.disable, { workspace_id: workspaceId, id, now })) === 1;
    },
    async rotate(workspaceId, id, { secret, previousExpiresAt }, now) {
      const rotated = { secret, keep_previous: previousExpiresAt === null ? 0 : 1, previous_secret_expires_at: previousExpiresAt };
      return (await run(pool, SQL.rotate, { workspace_id: workspaceId, id, now, ...rotated })) === 1;
    },
  };
}
