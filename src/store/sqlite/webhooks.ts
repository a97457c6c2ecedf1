import type { CreatedPosition } from '../interfaces/list-pages.js';
import type { WebhookChanges, WebhookRow, WebhookStore } from '../interfaces/webhooks.js';
import type { Db } from './database.js';
import { prepareCreatedOrderList } from './keyset.js';
import { promised } from './promised.js';
import { prepareCappedInsert } from './capped-insert.js';
import { WEBHOOK_SQL } from '../webhook-statements.js';

/** The subscriptions of the administration API. Every statement is scoped by workspace. */
export function createWebhookStore(db: Db): WebhookStore {
  const statements = {
    get: db.prepare(WEBHOOK_SQL.get),
    // COALESCE keeps a field unless a new value is given; `description` may be set to null, so it
    // carries its own flag.
    update: db.prepare(
      `UPDATE webhooks SET url = COALESCE(@url, url), name = COALESCE(@name, name),
         description = CASE WHEN @set_description THEN @description ELSE description END,
         events = COALESCE(@events, events), updated_at = @now
       WHERE workspace_id = @workspace_id AND id = @id`,
    ),
    delete: db.prepare(WEBHOOK_SQL.delete),
    enable: db.prepare(WEBHOOK_SQL.enable),
    disable: db.prepare(WEBHOOK_SQL.disable),
    rotate: db.prepare(WEBHOOK_SQL.rotate),
  };
  const insertUnderCap = prepareCappedInsert<WebhookRow>(db, WEBHOOK_SQL.count, WEBHOOK_SQL.insert);
  const listPage = prepareCreatedOrderList(db, {
    select: 'SELECT * FROM webhooks',
    where: 'workspace_id = @workspace_id',
    createdAt: 'created_at',
    id: 'id',
  });

  return promised({
    insertUnderCap(row: WebhookRow, max: number): boolean {
      return insertUnderCap(row, max);
    },
    get(workspaceId: string, id: string): WebhookRow | undefined {
      return statements.get.get(workspaceId, id) as WebhookRow | undefined;
    },
    /** Up to `limit` webhooks of the workspace after `position`, in (created_at, id) order. */
    list(workspaceId: string, limit: number, position?: CreatedPosition): WebhookRow[] {
      return listPage<WebhookRow>({ workspace_id: workspaceId }, limit, position);
    },
    /** Returns false when there is no such webhook in the workspace. */
    update(workspaceId: string, id: string, changes: WebhookChanges, now: string): boolean {
      return statements.update.run({
        workspace_id: workspaceId,
        id,
        url: changes.url ?? null,
        name: changes.name ?? null,
        set_description: changes.description === undefined ? 0 : 1,
        description: changes.description ?? null,
        events: changes.events ?? null,
        now,
      }).changes === 1;
    },
    /** Deletes the webhook; its deliveries go with it (foreign key cascade). False when there was none. */
    delete(workspaceId: string, id: string): boolean {
      return statements.delete.run(workspaceId, id).changes === 1;
    },
    /** Enables the webhook and resets its failure count. False when there is no such webhook. */
    enable(workspaceId: string, id: string, now: string): boolean {
      return statements.enable.run({ workspace_id: workspaceId, id, now }).changes === 1;
    },
    /** Disables the webhook, keeping the time it was first disabled. False when there is no such webhook. */
    disable(workspaceId: string, id: string, now: string): boolean {
      return statements.disable.run({ workspace_id: workspaceId, id, now }).changes === 1;
    },
    /** Installs a new secret; the previous one keeps signing until `previousExpiresAt` (none when null). */
    rotate(
      workspaceId: string,
      id: string,
      rotation: { secret: string; previousExpiresAt: string | null },
      now: string,
    ): boolean {
      return statements.rotate.run({
        workspace_id: workspaceId,
        id,
        secret: rotation.secret,
        keep_previous: rotation.previousExpiresAt === null ? 0 : 1,
        previous_secret_expires_at: rotation.previousExpiresAt,
        now,
      }).changes === 1;
    },
  });
}
