import { Codes } from '../errors/codes.js';
import { ServiceError } from '../errors/service-error.js';
import type { AdminLookupsFirst, AdminOperationHandler, AdminServices } from '../operations/handler-types.js';
import {
  checkWebhookUrl,
  createWebhook as createSubscription,
  deleteWebhook as deleteSubscription,
  getWebhook as getSubscription,
  rotateWebhookSecret as rotateSecret,
  setWebhookEnabled,
  testWebhook as sendTest,
  toWebhookView,
  updateWebhook as updateSubscription,
  type UrlPolicy,
} from '../webhooks/subscriptions.js';
import { getDelivery, listDeliveries, recoverFailedSince, redeliver } from '../webhooks/delivery/index.js';
import type { Store } from '../store/index.js';
import { readCreatedOrderPage } from '../pagination/created-order-page.js';
import { accepted, created, deleted, ok, okWith } from '../operations/success.js';

const policy = (services: AdminServices): UrlPolicy => ({ allowPrivate: services.allowPrivateWebhookTargets, resolve: services.resolveHost });
const catalogOrder = (services: AdminServices) => services.eventCatalog.map((e) => e.event);

/** Deliveries are addressed through their webhook: an unknown webhook is a 404 before anything else. */
async function requireWebhook(store: Store, workspaceId: string, webhookId: string): Promise<void> {
  if (!(await store.webhooks.get(workspaceId, webhookId))) throw ServiceError.notFound('Webhook');
}

/**
 * The URL checks of the writes that take a webhook URL, done before their unit of work
 * (AdminLookupsFirst): every write is one transaction with its audit entries, and under an
 * Idempotency-Key with its kept answer. testWebhook acts without writing
 * (x-acts-without-writing): it holds no transaction while it waits for the receiver.
 */
export const webhookLookupsFirst: AdminLookupsFirst = {
  createWebhook: ({ body, services }) => checkWebhookUrl(body.url, policy(services)),
  updateWebhook: ({ body, services }) => (body.url === undefined ? Promise.resolve() : checkWebhookUrl(body.url, policy(services))),
};

export const listWebhookEvents: AdminOperationHandler<'listWebhookEvents'> = ({ services }) => ({
  status: 200,
  body: { code: Codes.EVENT_CATALOG_OK, messages: 'OK', data: [...services.eventCatalog] },
});

export const listWebhooks: AdminOperationHandler<'listWebhooks'> = async ({ operationId, path, query, store, cursors, now }) =>
  ok(await readCreatedOrderPage(
    cursors,
    { list: operationId, workspaceId: path.workspace_id, filters: {} },
    query,
    async (limit, after) => (await store.webhooks.list(path.workspace_id, limit, after)).map((row) => toWebhookView(row, now)),
    (webhook) => [webhook.created_at, webhook.id],
  ));

export const createWebhook: AdminOperationHandler<'createWebhook'> = async ({ path, body, caller, store, now, services }) => {
  return created(
    await createSubscription(store, {
      workspaceId: path.workspace_id,
      userId: caller.user_id,
      url: body.url,
      name: body.name,
      description: body.description,
      events: body.events,
      catalogOrder: catalogOrder(services),
      policy: policy(services),
      now,
      max: services.limits.webhooks,
    }),
    'Created. Store the secret now: it is not shown again.',
  );
};

export const getWebhook: AdminOperationHandler<'getWebhook'> = async ({ path, store, now }) =>
  ok(await getSubscription(store, { workspaceId: path.workspace_id, webhookId: path.webhook_id, now }));

export const updateWebhook: AdminOperationHandler<'updateWebhook'> = async ({ path, body, store, now, services }) =>
  ok(await updateSubscription(store, {
    workspaceId: path.workspace_id,
    webhookId: path.webhook_id,
    changes: body,
    catalogOrder: catalogOrder(services),
    policy: policy(services),
    now,
  }));

export const deleteWebhook: AdminOperationHandler<'deleteWebhook'> = async ({ path, store }) =>
  deleted(await deleteSubscription(store, { workspaceId: path.workspace_id, webhookId: path.webhook_id }), 'Deleted.');

export const enableWebhook: AdminOperationHandler<'enableWebhook'> = async ({ path, store, now }) =>
  okWith(await setWebhookEnabled(store, { workspaceId: path.workspace_id, webhookId: path.webhook_id, enabled: true, now }), 'Enabled.');

export const disableWebhook: AdminOperationHandler<'disableWebhook'> = async ({ path, store, now }) =>
  okWith(await setWebhookEnabled(store, { workspaceId: path.workspace_id, webhookId: path.webhook_id, enabled: false, now }), 'Disabled.');

export const rotateWebhookSecret: AdminOperationHandler<'rotateWebhookSecret'> = async ({ path, body, store, now }) =>
  okWith(
    await rotateSecret(store, {
      workspaceId: path.workspace_id,
      webhookId: path.webhook_id,
      gracePeriodSeconds: body.grace_period_seconds,
      now,
    }),
    'Rotated. Store the new secret now: it is not shown again.',
  );

export const testWebhook: AdminOperationHandler<'testWebhook'> = async ({ path, body, store, now, services }) => {
  const result = await sendTest(store, { workspaceId: path.workspace_id, webhookId: path.webhook_id, event: body?.event, policy: policy(services), timeoutMs: services.webhookTimeoutMs, now });
  return okWith(result, result.success ? `Test delivery answered ${result.http_status}.` : `Test delivery failed: ${result.error}.`);
};

export const listWebhookDeliveries: AdminOperationHandler<'listWebhookDeliveries'> = async ({ path, query, store, cursors }) => {
  await requireWebhook(store, path.workspace_id, path.webhook_id);
  return ok(await listDeliveries(store, cursors, {
    workspaceId: path.workspace_id,
    webhookId: path.webhook_id,
    eventType: query.event_type,
    status: query.status,
    limit: query.limit,
    cursor: query.cursor,
  }));
};

export const getWebhookDelivery: AdminOperationHandler<'getWebhookDelivery'> = async ({ path, store }) => {
  await requireWebhook(store, path.workspace_id, path.webhook_id);
  const view = await getDelivery(store, { workspaceId: path.workspace_id, webhookId: path.webhook_id, deliveryId: path.delivery_id });
  if (!view) throw ServiceError.notFound('Delivery');
  return ok(view);
};

export const redeliverWebhookDelivery: AdminOperationHandler<'redeliverWebhookDelivery'> = async ({ path, store, now }) => {
  await requireWebhook(store, path.workspace_id, path.webhook_id);
  const view = await redeliver(store, { workspaceId: path.workspace_id, webhookId: path.webhook_id, deliveryId: path.delivery_id, now });
  if (!view) throw ServiceError.notFound('Delivery');
  return accepted(view, 'Redelivery queued.');
};

export const recoverWebhookDeliveries: AdminOperationHandler<'recoverWebhookDeliveries'> = async ({ path, body, store, now }) => {
  await requireWebhook(store, path.workspace_id, path.webhook_id);
  const result = await recoverFailedSince(store, { workspaceId: path.workspace_id, webhookId: path.webhook_id, since: body.since, now });
  return accepted(result, `${result.recovered} failed ${result.recovered === 1 ? 'delivery' : 'deliveries'} queued again.`);
};
