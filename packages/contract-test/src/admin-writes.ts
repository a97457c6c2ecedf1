import { credentialFor } from './credentials.js';
import { checkRequestBodies } from './body-cases.js';
import { bodyModel } from './body-values.js';
import { all, namesParameters, status, succeeds, type Expectation } from './expectations.js';
import { followLinks } from './contract-links.js';
import type { Credential, OutgoingRequest } from './http-exchange.js';
import type { Operation } from './openapi-contract.js';
import { unknownValue } from './parameter-values.js';
import { fillPath, pathParameters } from './read-cases.js';
import { EVERY_CALL, READ_METHODS } from './report.js';
import type { RunContext } from './run-context.js';

/** The name every object the run creates carries, so an operator can tell them apart. */
export const CREATED_NAME = 'workspace-api contract-test';

/** Writes never sent with a request they could carry out, and why. */
const NEVER_SENT: Record<string, string> = {
  removeMember: 'removing a member is destructive: never sent',
  updateMember: 'changing a member\'s role is destructive: never sent',
  redeliverWebhookDelivery: 'redelivers a real delivery: `contract-test webhooks --trigger` covers it',
};

/**
 * With `--allow-writes`: creates one webhook and one API key of its own, exercises every write on
 * them, and removes both whatever happens, checking afterwards that the webhook is gone and the
 * key refused. Writes that would touch anything else (removing a member, redelivering someone's
 * delivery) are not sent.
 */
export async function checkAdminWrites(
  ctx: RunContext,
  token: Credential,
  workspaceId: string,
  options: {
    webhookUrl: string;
    identity: { op: Operation; credential: Credential } | undefined;
    /** For the property-based bodies: `--examples`, `--full`, `--operations`. */
    examples: number;
    full: boolean;
    operations: readonly string[] | undefined;
  },
): Promise<void> {
  const find = (operationId: string): Operation | undefined => ctx.contract.operation(operationId);
  const at = (op: Operation, values: Record<string, string> = {}): string => fillPath(op.path, { workspace_id: workspaceId, ...values });
  const write = async (op: Operation | undefined, title: string, values: Record<string, string>, body: unknown, expectation: Expectation, essential = false) => {
    if (!op) return undefined;
    const problems = body === undefined ? [] : ctx.contract.requestBodyProblems(op, body);
    if (problems.length > 0) {
      ctx.skip(op, title, `the request this checker sends no longer fits the contract: ${problems.join('; ')}`);
      return undefined;
    }
    const credential = credentialFor(ctx.contract, op, [token]) ?? token;
    const request: OutgoingRequest = { method: op.method, path: at(op, values), query: [], credential, body };
    const response = await ctx.exchange(op, title, request, expectation, { essential });
    return response && { request, response, op, json: response.json };
  };
  /** The path values the contract's link from this answer gives `target`; skipped (undefined) when it links none. */
  const linked = (answer: Awaited<ReturnType<typeof write>>, target: string, what: string): Record<string, string> | undefined => {
    if (!answer) return undefined;
    const values = followLinks(answer.op, answer.request, answer.response).get(target);
    if (!values) ctx.skip(find(target) ?? answer.op, what, `no link of ${answer.op.operationId} ${answer.response.status} to ${target} resolved from its answer`);
    return values;
  };

  // The key's sequence first: the property-based bodies on the webhook's writes may spend the
  // rest of the default plan.
  const createKey = find('createApiKey');
  const key = await write(createKey, 'create an API key with no scopes, expiring in an hour', {}, {
    name: CREATED_NAME,
    scopes: [],
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  }, all(succeeds, status(201)));
  const secret = (key?.json as { data?: { key?: string } } | undefined)?.data?.key;
  const revocation = linked(key, 'revokeApiKey', 'revoke the created key');
  if (revocation) {
    await write(find('updateApiKey'), 'rename the created key', revocation, { name: `${CREATED_NAME} (renamed)` }, succeeds);
    await write(find('revokeApiKey'), 'revoke the created key (link from createApiKey)', revocation, undefined, succeeds, true);
    const { identity } = options;
    if (identity && secret) {
      const revoked: Credential = { ...identity.credential, label: 'revoked key', value: secret, envVar: undefined, failsAuthentication: true };
      await ctx.exchange(identity.op, 'the revoked key → 401 4022', { method: identity.op.method, path: identity.op.path, query: [], credential: revoked },
        status(401, 4022), { essential: true });
    }
  }
  const createWebhook = find('createWebhook');
  const eventTypes = ctx.contract.enumOf('EventType');
  const created = await write(createWebhook, 'create a webhook of the run', {}, {
    url: options.webhookUrl,
    name: CREATED_NAME,
    description: 'Created by workspace-api contract-test; deleted before the run ends.',
    events: eventTypes.slice(0, 1),
  }, all(succeeds, status(201)));
  // The sequence follows the contract's links: create → read → update → delete → read (404).
  const own = linked(created, 'getWebhook', 'the writes on the created webhook');
  const webhookId = own?.webhook_id;
  if (own && webhookId) {
    let deletion = own;
    try {
      const read = await write(find('getWebhook'), 'read the created webhook (link from createWebhook)', own, undefined, succeeds);
      const update = linked(read, 'updateWebhook', 'rename the created webhook');
      const updated = update && await write(find('updateWebhook'), 'rename the created webhook (link from getWebhook)', update, { name: `${CREATED_NAME} (renamed)` }, succeeds);
      deletion = linked(updated, 'deleteWebhook', 'delete the created webhook') ?? own;
      await write(find('disableWebhook'), 'disable the created webhook', own, undefined, succeeds);
      await write(find('enableWebhook'), 'enable the created webhook', own, undefined, succeeds);
      await write(find('rotateWebhookSecret'), 'rotate its secret, no grace period', own, { grace_period_seconds: 0 }, succeeds);
      await write(find('testWebhook'), 'send it a test event', own, { event: eventTypes[0] }, succeeds);
      await write(find('listWebhookDeliveries'), 'list its deliveries', own, undefined, succeeds);
      await write(find('recoverWebhookDeliveries'), 'recover its failed deliveries', own, { since: new Date(Date.now() - 3_600_000).toISOString() }, succeeds);
      await checkRequestBodies(ctx, {
        token, own: { workspace_id: workspaceId, webhook_id: webhookId }, webhookUrl: options.webhookUrl, createdName: CREATED_NAME,
        examples: options.examples, full: options.full, operations: options.operations, neverSent: Object.keys(NEVER_SENT),
      });
      await checkWriteRefusals(ctx, token, workspaceId, webhookId, { webhookUrl: options.webhookUrl, operations: options.operations });
      if (createWebhook) {
        const unknown = ctx.values.unknownParameterName();
        const op = createWebhook;
        await ctx.exchange(op, `a body with an unknown field ${unknown} → 422 naming it`, {
          method: op.method, path: at(op), query: [], credential: credentialFor(ctx.contract, op, [token]) ?? token,
          body: { url: options.webhookUrl, name: CREATED_NAME, events: eventTypes.slice(0, 1), [unknown]: true },
        }, all(status(422, 4220), namesParameters([unknown])));
      }
    } finally {
      const deleted = await write(find('deleteWebhook'), 'delete the created webhook (link from updateWebhook)', deletion, undefined, succeeds, true);
      const after = linked(deleted, 'getWebhook', 'use_after_free: the deleted webhook read again');
      if (after) await write(find('getWebhook'), 'use_after_free: the deleted webhook read again (link from deleteWebhook) → 404', after, undefined, status(404, 4040), true);
    }
  }

  for (const [operationId, why] of Object.entries(NEVER_SENT)) {
    const op = find(operationId);
    if (op) ctx.skip(op, EVERY_CALL, why);
  }
}

/**
 * Refusals of every write that change nothing: each path parameter in turn given a value that names
 * nothing, whatever its type (404: a workspace that is not the token's is checked before anything
 * else, so its request carries an empty body; any other object after the body is validated, so its
 * request carries a valid one), where documented a body in a media type the operation does not
 * take (415), and an unknown query parameter (422 naming it). Paths point at the run's own
 * webhook, except deletions, which get ids that name nothing, so that a server ignoring the
 * parameter still deletes nothing. With `--operations`, only the writes it names.
 */
async function checkWriteRefusals(ctx: RunContext, token: Credential, workspaceId: string, webhookId: string, settings: { webhookUrl: string; operations: readonly string[] | undefined }): Promise<void> {
  for (const op of ctx.contract.operations.filter((o) => !READ_METHODS.includes(o.method) && (settings.operations === undefined || settings.operations.includes(o.operationId)))) {
    const credential = credentialFor(ctx.contract, op, [token]);
    if (!credential) continue;
    const values: Record<string, string> = {};
    for (const param of pathParameters(op)) {
      values[param.name] = param.name === 'workspace_id' ? workspaceId
        : param.name === 'webhook_id' && op.method !== 'DELETE' ? webhookId
          : ctx.values.uuid();
    }
    const body = op.requestBody ? {} : undefined;
    const documents = (code: string) => op.responseKeys.includes(code);
    if (documents('404')) {
      // A valid body that sets something: an update that sets nothing is refused (422) before its object is looked up.
      const model = op.requestBody?.schemaPointer === undefined ? undefined
        : bodyModel(ctx.contract, op.requestBody.schemaPointer, { url: settings.webhookUrl, unknownProperty: ctx.values.unknownParameterName(), now: new Date() });
      const validBody = op.requestBody?.schemaPointer === undefined ? body
        : model && ([model.sample, ...model.edges].find((b) => Object.keys(b).length > 0) ?? model.sample);
      for (const param of pathParameters(op)) {
        const unknown = unknownValue(ctx.contract.schema(param.schema) ?? {}, { uuid: () => ctx.values.uuid(), seed: ctx.values.seedFor(`${op.operationId}:${param.name}`) });
        const another = param.name === 'workspace_id';
        if (unknown === undefined || (!another && op.requestBody && validBody === undefined)) continue;
        await ctx.as('negative_data_rejection', () => ctx.exchange(op, another ? 'a workspace that is not the token\'s → 404' : `a {${param.name}} that names nothing → 404`, {
          method: op.method, path: fillPath(op.path, { ...values, [param.name]: unknown }), query: [], credential, body: another ? body : validBody,
        }, status(404, 4040)));
      }
    }
    if (documents('415') && op.requestBody) {
      await ctx.exchange(op, 'a body that is not JSON → 415', {
        method: op.method, path: fillPath(op.path, values), query: [], credential, body: {}, headers: { 'content-type': 'text/plain' },
      }, status(415));
    }
    if (documents('422')) {
      const unknown = ctx.values.unknownParameterName();
      await ctx.exchange(op, `unknown ${unknown} → 422 naming it`, {
        method: op.method, path: fillPath(op.path, values), query: [[unknown, '1']], credential, body,
      }, all(status(422, 4220), namesParameters([unknown])));
    }
  }
}
