// What the audit log records of each administration operation: the action it performs (or, for a
// read, the action a refused attempt names) and the object it acts on. The table is typed over
// every administration operation of the contract, so a new one does not compile without its entry.
import type { AdminOperationId } from '../operations/handler-types.js';
import type { AuditAction, AuditObject, AuditObjectType } from '../audit/record-audit.js';

interface OperationAudit {
  action: AuditAction;
  /** The object's type, and the path parameter holding its id; without `param`, the id is the created resource's, read from the answer. */
  object?: { type: AuditObjectType; param?: string };
}

type AuditedOperationId = Exclude<AdminOperationId, `head${string}`>;

const OPERATION_AUDIT: Record<AuditedOperationId, OperationAudit> = {
  listWebhookEvents: { action: 'webhook_events.listed' },
  listWebhooks: { action: 'webhooks.listed' },
  createWebhook: { action: 'webhook.created', object: { type: 'webhook' } },
  getWebhook: { action: 'webhook.viewed', object: { type: 'webhook', param: 'webhook_id' } },
  updateWebhook: { action: 'webhook.updated', object: { type: 'webhook', param: 'webhook_id' } },
  deleteWebhook: { action: 'webhook.deleted', object: { type: 'webhook', param: 'webhook_id' } },
  enableWebhook: { action: 'webhook.enabled', object: { type: 'webhook', param: 'webhook_id' } },
  disableWebhook: { action: 'webhook.disabled', object: { type: 'webhook', param: 'webhook_id' } },
  rotateWebhookSecret: { action: 'webhook.secret_rotated', object: { type: 'webhook', param: 'webhook_id' } },
  testWebhook: { action: 'webhook.test_sent', object: { type: 'webhook', param: 'webhook_id' } },
  listWebhookDeliveries: { action: 'webhook_deliveries.listed', object: { type: 'webhook', param: 'webhook_id' } },
  getWebhookDelivery: { action: 'webhook_delivery.viewed', object: { type: 'webhook_delivery', param: 'delivery_id' } },
  redeliverWebhookDelivery: { action: 'webhook_delivery.redelivered', object: { type: 'webhook_delivery', param: 'delivery_id' } },
  recoverWebhookDeliveries: { action: 'webhook_deliveries.recovered', object: { type: 'webhook', param: 'webhook_id' } },
  listApiKeys: { action: 'api_keys.listed' },
  createApiKey: { action: 'api_key.created', object: { type: 'api_key' } },
  revokeApiKey: { action: 'api_key.revoked', object: { type: 'api_key', param: 'key_id' } },
  updateApiKey: { action: 'api_key.updated', object: { type: 'api_key', param: 'key_id' } },
  listMembers: { action: 'members.listed' },
  updateMember: { action: 'member.role_changed', object: { type: 'member', param: 'user_id' } },
  removeMember: { action: 'member.removed', object: { type: 'member', param: 'user_id' } },
  listAuditLog: { action: 'audit_log.viewed' },
  getDailyUsage: { action: 'usage.viewed' },
};

export function operationAudit(operationId: string): OperationAudit | undefined {
  return Object.hasOwn(OPERATION_AUDIT, operationId) ? OPERATION_AUDIT[operationId as AuditedOperationId] : undefined;
}

/** The id of the first object in an answer's `data` that has one: the resource it is about (`data.api_key.id` of a new key). */
export function resourceIdOf(answer: unknown): string | null {
  const data = (answer as { data?: unknown } | null)?.data;
  if (data === null || typeof data !== 'object') return null;
  for (const value of Object.values(data as Record<string, unknown>)) {
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === 'string') return id;
  }
  return null;
}

/**
 * The object an operation acts on: its id from the path, or from the answer of a creation; with no
 * answer (a refused attempt to create), the type alone.
 */
export function auditObjectOf(audit: OperationAudit, path: Record<string, unknown>, answer?: unknown): AuditObject | null {
  if (audit.object === undefined) return null;
  const fromPath = audit.object.param === undefined ? undefined : path[audit.object.param];
  if (typeof fromPath === 'string') return { type: audit.object.type, id: fromPath.toLowerCase() };
  return { type: audit.object.type, id: answer === undefined ? null : resourceIdOf(answer) };
}
