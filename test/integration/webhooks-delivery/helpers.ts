import { createHmac, timingSafeEqual } from 'node:crypto';
import { onTestFinished } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { Store } from '../../../src/store/index.js';
import type { WebhookDeliveryConfig } from '../../../src/config.js';
import type { DeliveryDispatcher } from '../../../src/webhooks/delivery/index.js';
import { SAMPLE_EVENT_DATA } from '../../../src/webhooks/delivery/index.js';
import type { EventPayloads, EventType } from '../../../generated/events.js';
import type { Resolver } from '../../../src/webhooks/ssrf-guard.js';
import { createTestStore } from '../../support/test-server.js';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { startDispatcherForThisTest } from '../../support/webhooks.js';
import type { ReceivedRequest } from '../../support/webhook-receiver.js';

/**
 * Everything a test started, stopped when that test ends, in reverse order. Registered on the
 * running test, not at import time, so it holds whichever files share a worker.
 */
export function onCleanup(fn: () => Promise<void> | void): void {
  onTestFinished(fn);
}

export interface DeliveryWorld {
  store: Store;
  workspace: TestWorkspace;
  dispatcher: DeliveryDispatcher;
}

/** A fresh database and workspace with a started dispatcher, all torn down after the test. */
export async function startDeliveryWorld(config: Partial<WebhookDeliveryConfig> = {}, options: { resolve?: Resolver } = {}): Promise<DeliveryWorld> {
  const { store, cleanup } = await createTestStore({ ownDatabase: true });
  onCleanup(cleanup);
  const workspace = await createTestWorkspace(store);
  const dispatcher = startDispatcherForThisTest(store, config, options);
  return { store, workspace, dispatcher };
}

/** A status change's event, as importers write it: the event's sample data as a fresh record, with `changes`. */
export function emit(store: Store, workspaceId: string): Promise<string>;
export function emit<E extends EventType>(store: Store, workspaceId: string, type: E, changes?: Partial<EventPayloads[E]>): Promise<string>;
export function emit(store: Store, workspaceId: string, type: EventType = 'content.status_updated', changes: Partial<EventPayloads[EventType]> = {}): Promise<string> {
  return emitEvent(store, workspaceId, type, changes);
}

function emitEvent<E extends EventType>(store: Store, workspaceId: string, type: E, changes: Partial<EventPayloads[E]>): Promise<string> {
  return store.webhookDeliveries.enqueueEvent({ workspaceId, type, data: { ...SAMPLE_EVENT_DATA[type], id: crypto.randomUUID(), ...changes } });
}

/** Both checks a receiver makes; throws like the library when a check fails. */
export function verifyDelivery(secret: string, request: ReceivedRequest): unknown {
  const headers = request.headers as Record<string, string>;
  const payload = new Webhook(secret).verify(request.rawBody, headers);
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(request.rawBody).digest('hex')}`);
  const given = Buffer.from(headers['x-webhook-signature'] ?? '');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new Error('X-Webhook-Signature does not match');
  return payload;
}

export { until } from '../../support/wait.js';

export { startReceiverForThisTest as receiver } from '../../support/webhook-receiver.js';
