import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import { onTestFinished } from 'vitest';
import type { EventType } from '../../generated/events.js';
import type { Store } from '../../src/store/index.js';
import type { WebhookDeliveryConfig } from '../../src/config.js';
import { createDeliveryDispatcher, type DeliveryDispatcher } from '../../src/webhooks/delivery/index.js';
import type { Resolver } from '../../src/webhooks/ssrf-guard.js';
import type { TestWorkspace } from './accounts.js';
import { rowsOf } from './database-rows.js';

export const ALL_EVENT_TYPES: readonly EventType[] = [
  'content.status_updated',
  'research_batch.status_updated',
  'agent_task.status_updated',
  'topic.status_updated',
  'iq.status_updated',
  'sitemap_url.status_updated',
];

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface TestWebhook {
  id: string;
  secret: string;
  url: string;
}

/**
 * A webhook row written straight into the table, bypassing the save-time URL check: tests point
 * webhooks at loopback receivers, and the SSRF tests simulate a name that was public when saved.
 */
export async function createTestWebhook(
  store: Store,
  workspace: Pick<TestWorkspace, 'workspaceId' | 'ownerId'>,
  options: {
    url: string;
    events?: readonly EventType[];
    secret?: string;
    previousSecret?: string;
    previousSecretExpiresAt?: Date;
    enabled?: boolean;
  },
): Promise<TestWebhook> {
  const id = randomUUID();
  const secret = options.secret ?? newWebhookSecret();
  const now = new Date().toISOString();
  // Test data is not capped: the limit's own tests create webhooks through the API (workspace-limits.test.ts).
  await store.webhooks.insertUnderCap({
    id,
    workspace_id: workspace.workspaceId,
    url: options.url,
    name: `Test webhook ${id.slice(0, 8)}`,
    description: null,
    events: JSON.stringify(options.events ?? ALL_EVENT_TYPES),
    secret,
    previous_secret: options.previousSecret ?? null,
    previous_secret_expires_at: options.previousSecretExpiresAt?.toISOString() ?? null,
    enabled: options.enabled === false ? 0 : 1,
    consecutive_failures: 0,
    disabled_at: null,
    created_by: workspace.ownerId,
    created_at: now,
    updated_at: now,
  }, Number.POSITIVE_INFINITY);
  return { id, secret, url: options.url };
}

export interface WebhookState {
  enabled: number;
  consecutive_failures: number;
  disabled_at: string | null;
}

export async function webhookState(store: Store, webhookId: string): Promise<WebhookState> {
  const [state] = await rowsOf<WebhookState>(store, 'SELECT enabled, consecutive_failures, disabled_at FROM webhooks WHERE id = ?', [webhookId]);
  return state!;
}

/** A shrunk, loopback-friendly delivery configuration; override what a test is about. */
export function testDeliveryConfig(overrides: Partial<WebhookDeliveryConfig> = {}): WebhookDeliveryConfig {
  return {
    allowPrivate: true,
    timeoutMs: 2_000,
    retryScheduleMs: [20, 40, 80],
    pollIntervalMs: 10,
    leaseMs: 5_000,
    perWebhookConcurrency: 4,
    maxConcurrency: 64,
    disableAfterFailures: 10,
    shutdownGraceMs: 200,
    ...overrides,
  };
}

export const silentLogger = pino({ level: 'silent' });

/**
 * The delivery engine over `store`, with the shrunk settings of `testDeliveryConfig(config)`,
 * started; stopped when the running test finishes.
 */
export function startDispatcherForThisTest(store: Store, config: Partial<WebhookDeliveryConfig> = {}, options: { resolve?: Resolver } = {}): DeliveryDispatcher {
  const dispatcher = createDeliveryDispatcher({ store, logger: silentLogger, config: testDeliveryConfig(config), ...options });
  dispatcher.start();
  onTestFinished(() => dispatcher.stop());
  return dispatcher;
}
