import type { AdminHandlers } from '../operations/handler-types.js';
import * as webhooks from '../handlers/webhooks.js';
import { createApiKey, listApiKeys, revokeApiKey, updateApiKey } from '../handlers/api-keys.js';
import { listMembers, removeMember, updateMember } from '../handlers/members.js';
import { listAuditLog } from '../handlers/audit-log.js';
import { getDailyUsage } from '../handlers/daily-usage.js';

/** One handler per administration operation (each operation whose `security` takes a member token); the type makes a missing one a compile error. */
export const adminHandlers: AdminHandlers = {
  listWebhookEvents: webhooks.listWebhookEvents,
  listWebhooks: webhooks.listWebhooks,
  createWebhook: webhooks.createWebhook,
  getWebhook: webhooks.getWebhook,
  updateWebhook: webhooks.updateWebhook,
  deleteWebhook: webhooks.deleteWebhook,
  enableWebhook: webhooks.enableWebhook,
  disableWebhook: webhooks.disableWebhook,
  rotateWebhookSecret: webhooks.rotateWebhookSecret,
  testWebhook: webhooks.testWebhook,
  listWebhookDeliveries: webhooks.listWebhookDeliveries,
  getWebhookDelivery: webhooks.getWebhookDelivery,
  redeliverWebhookDelivery: webhooks.redeliverWebhookDelivery,
  recoverWebhookDeliveries: webhooks.recoverWebhookDeliveries,
  listApiKeys,
  createApiKey,
  revokeApiKey,
  updateApiKey,
  listMembers,
  updateMember,
  removeMember,
  listAuditLog,
  getDailyUsage,
};
