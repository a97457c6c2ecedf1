import { expect } from 'vitest';
import type { EventType } from '../../../generated/events.js';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken, type AdminClient } from '../../support/admin.js';
import type { ObservedResponse } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import type { DeliveryDispatcher } from '../../../src/webhooks/delivery/index.js';
import { SAMPLE_EVENT_DATA } from '../../../src/webhooks/delivery/samples.js';
import { startDispatcherForThisTest } from '../../support/webhooks.js';
import type { WebhookDeliveryConfig } from '../../../src/config.js';


/** Every refusal's envelope carries null data; these are the exact bodies the guard answers. */
export const ROLE_FORBIDDEN = { code: 4030, messages: 'Only owners of the workspace can do this; your role is member.', data: null };
export const WORKSPACE_NOT_FOUND = { code: 4040, messages: 'Workspace not found.', data: null };
export const WEBHOOK_NOT_FOUND = { code: 4040, messages: 'Webhook not found.', data: null };
export const TOKEN_INVALID = {
  code: 4022,
  messages: 'The member token is invalid or revoked, or its user is no longer a member of the workspace.',
  data: null,
};

export interface AdminWorld {
  workspace: TestWorkspace;
  token: string;
  tokenId: string;
  /** Calls as the workspace owner. */
  call: AdminClient;
}

/** A fresh workspace with an owner and the owner's member token. */
export async function adminWorld(server: TestServer): Promise<AdminWorld> {
  const workspace = await createTestWorkspace(server.store);
  const { token, id } = await createTestMemberToken(server.store, workspace);
  return { workspace, token, tokenId: id, call: adminClient(server.url, workspace.workspaceId, token) };
}

export { startReceiverForThisTest as receiver } from '../../support/webhook-receiver.js';

/** Creates a webhook through the API and answers its id and secret. */
export async function createWebhook(
  call: AdminClient,
  body: { url: string; name?: string; description?: string | null; events?: EventType[] },
): Promise<{ id: string; secret: string; response: ObservedResponse }> {
  const response = await call({
    method: 'POST',
    path: '/webhooks',
    body: { name: 'Receiver', events: ['content.status_updated'], ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const data = (response.body as { data: { webhook: { id: string }; secret: string } }).data;
  return { id: data.webhook.id, secret: data.secret, response };
}

/** A status change, written to the outbox the way imports write it, with a schema-valid sample. */
export function emit(server: TestServer, workspaceId: string, type: EventType = 'content.status_updated'): Promise<string> {
  return server.store.webhookDeliveries.enqueueEvent({ workspaceId, type, data: SAMPLE_EVENT_DATA[type] });
}

/** The delivery engine over the test server's database, with a shrunk schedule; stopped after the test. */
export function startDispatcher(server: TestServer, config: Partial<WebhookDeliveryConfig> = {}): DeliveryDispatcher {
  return startDispatcherForThisTest(server.store, config);
}

export { until } from '../../support/wait.js';

/** The documented rate-limit headers of every authenticated administration response. */
export function expectRateLimitHeaders(response: ObservedResponse): void {
  expect(response.headers.get('ratelimit-policy')).toBe('"workspace";q=120;w=60');
  expect(response.headers.get('ratelimit')).toMatch(/^"workspace";r=\d+;t=\d+$/);
}
