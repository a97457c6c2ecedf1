import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { compileOperations } from '@workspace-read-api/contract/contract-operations.js';

// What the audit log records of each operation, as the app compiles it from the contract's
// `x-audit` at start-up (dispatch.ts and admin-guard.ts read it); what the entries hold is checked
// over HTTP in test/integration/audit/.

type Doc = { paths: Record<string, Record<string, Record<string, unknown>>> };

const document = loadOpenApiDocument() as Doc;
const compiled = compileOperations(document);
const administration = compiled.filter((op) => op.path.startsWith('/api/workspace/'));

/** The bundled contract with one operation's `x-audit` replaced (removed when undefined), compiled. */
function compileWith(path: string, method: string, audit: unknown) {
  const doc = structuredClone(document);
  if (audit === undefined) delete doc.paths[path]![method]!['x-audit'];
  else doc.paths[path]![method]!['x-audit'] = audit;
  return () => compileOperations(doc);
}

const WEBHOOK = '/api/workspace/{workspace_id}/webhooks/{webhook_id}';

describe('the compiled x-audit of each operation', () => {
  it('gives every administration operation an action, and no read-API operation one', () => {
    expect(administration.length).toBeGreaterThanOrEqual(23);
    expect(administration.filter((op) => op.audit === null).map((op) => op.operationId)).toEqual([]);
    expect(compiled.filter((op) => !op.path.startsWith('/api/workspace/') && op.audit !== null).map((op) => op.operationId)).toEqual([]);
  });

  it('reads the object from its path parameter, from the answer of a creation, or none', () => {
    const byId = new Map(compiled.map((op) => [op.operationId, op.audit]));
    expect(byId.get('updateWebhook')).toEqual({ action: 'webhook.updated', object: { type: 'webhook', idParameter: 'webhook_id' } });
    expect(byId.get('redeliverWebhookDelivery')).toEqual({ action: 'webhook_delivery.redelivered', object: { type: 'webhook_delivery', idParameter: 'delivery_id' } });
    expect(byId.get('createApiKey')).toEqual({ action: 'api_key.created', object: { type: 'api_key', idParameter: null } });
    expect(byId.get('listAuditLog')).toEqual({ action: 'audit_log.viewed', object: null });
  });

  it('names, for every object id it reads from the path, a path parameter of the operation', () => {
    for (const op of administration) {
      const parameter = op.audit?.object?.idParameter;
      if (parameter) expect(op.path, op.operationId).toContain(`{${parameter}}`);
    }
  });

  it('stops the start-up, naming the operation, on an x-audit the audit log could not record as written', () => {
    expect(compileWith(WEBHOOK, 'patch', 'webhook.updated')).toThrow(`PATCH ${WEBHOOK}: x-audit must be an object with action, object, object-id`);
    expect(compileWith(WEBHOOK, 'patch', { action: 'webhook.renamed', object: 'webhook', 'object-id': 'webhook_id' }))
      .toThrow(`PATCH ${WEBHOOK}: x-audit action "webhook.renamed" is not one of the contract's AuditAction`);
    expect(compileWith(WEBHOOK, 'patch', { object: 'webhook' })).toThrow('x-audit action undefined is not one of the contract\'s AuditAction');
    expect(compileWith(WEBHOOK, 'patch', { action: 'webhook.updated', object: 'hook', 'object-id': 'webhook_id' }))
      .toThrow(`PATCH ${WEBHOOK}: x-audit object "hook" is not one of the contract's AuditObjectType`);
    expect(compileWith(WEBHOOK, 'patch', { action: 'webhook.updated', object: 'webhook', 'object-id': 'hook_id' }))
      .toThrow(`PATCH ${WEBHOOK}: x-audit object-id "hook_id" is not a path parameter of the operation`);
    expect(compileWith(WEBHOOK, 'patch', { action: 'webhook.updated', 'object-id': 'webhook_id' })).toThrow(`PATCH ${WEBHOOK}: x-audit names an object-id but no object`);
    expect(compileWith(WEBHOOK, 'patch', { action: 'webhook.updated', object: 'webhook', objectId: 'webhook_id' }))
      .toThrow(`PATCH ${WEBHOOK}: x-audit has no objectId; it has action, object, object-id`);
  });

  it('compiles an operation without x-audit to none: the lint gate requires one on every administration operation', () => {
    const op = compileWith(WEBHOOK, 'patch', undefined)().find((o) => o.operationId === 'updateWebhook');
    expect(op?.audit).toBeNull();
  });
});
