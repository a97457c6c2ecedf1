import type { CreatedPosition } from './list-pages.js';

/** A webhook subscription as stored; `events` is a JSON array of event types. */
export interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  name: string;
  description: string | null;
  events: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  enabled: 0 | 1;
  consecutive_failures: number;
  disabled_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export type WebhookChanges = Partial<Pick<WebhookRow, 'url' | 'name' | 'description' | 'events'>>;

/** The subscriptions of the administration API. Every read and write is scoped by workspace. */
export interface WebhookStore {
  /**
   * Inserts the webhook unless the workspace already holds `max` webhooks; resolves false, having
   * written nothing, when it does. The count and the insert are one transaction, serialised per
   * workspace, so webhooks created at the same instant never pass the cap together.
   */
  insertUnderCap(row: WebhookRow, max: number): Promise<boolean>;
  get(workspaceId: string, id: string): Promise<WebhookRow | undefined>;
  /** Up to `limit` webhooks of the workspace after `position`, in (created_at, id) order. */
  list(workspaceId: string, limit: number, position?: CreatedPosition): Promise<WebhookRow[]>;
  /** Resolves false when there is no such webhook in the workspace. */
  update(workspaceId: string, id: string, changes: WebhookChanges, now: string): Promise<boolean>;
  /** Deletes the webhook; its deliveries go with it. False when there was none. */
  delete(workspaceId: string, id: string): Promise<boolean>;
  /** Enables the webhook and resets its failure count. False when there is no such webhook. */
  enable(workspaceId: string, id: string, now: string): Promise<boolean>;
  /** Disables the webhook, keeping the time it was first disabled. False when there is no such webhook. */
  disable(workspaceId: string, id: string, now: string): Promise<boolean>;
  /**
   * Installs a new secret; the one it replaces, as stored when the write runs, keeps signing until
   * `previousExpiresAt` (none when null). False when there is no such webhook.
   */
  rotate(
    workspaceId: string,
    id: string,
    rotation: { secret: string; previousExpiresAt: string | null },
    now: string,
  ): Promise<boolean>;
}
