import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { compileOperations } from '@workspace-read-api/contract/contract-operations.js';
import { createTestKey, createTestMember } from '../../support/accounts.js';
import { consoleMember } from '../../support/console-client.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook } from '../../integration/webhooks-admin/helpers.js';

// A request that leaves out a body property the contract gives a `default:` (or the whole body)
// is served with that default, taken from the contract the app is built from: the bundled one, and
// a copy whose defaults differ, so a default written anywhere in src/ would show.

type Json = Record<string, any>;

const bundledDocument = loadOpenApiDocument();
const changed = structuredClone(bundledDocument) as Json;
changed.components.schemas.RotateWebhookSecretRequest.properties.grace_period_seconds.default = 3600;
changed.components.schemas.UpdateMemberRequest.properties.revoke_keys.default = true;

/** The default a document's compiled operation gives a body property. */
function bodyDefault(document: object, operationId: string, property: string): unknown {
  return compileOperations(document).find((op) => op.operationId === operationId)?.bodyDefaults[property];
}

type Rotated = { data: { webhook: { previous_secret_expires_at: string | null; updated_at: string } } };

const bundled = useTestServer({ allowPrivateWebhookTargets: true });
const modified = useTestServer({ allowPrivateWebhookTargets: true, document: changed });

/** Seconds from the rotation to the end of the old secret's grace period. */
const graceOf = (rotated: Rotated): number =>
  (Date.parse(rotated.data.webhook.previous_secret_expires_at!) - Date.parse(rotated.data.webhook.updated_at)) / 1000;

describe('body properties the contract defaults', () => {
  it('are found in the contract: a new webhook\'s description, the rotation\'s grace period and a demotion\'s revoke_keys', () => {
    const defaulted = compileOperations(bundledDocument).filter((op) => Object.keys(op.bodyDefaults).length > 0);
    expect(Object.fromEntries(defaulted.map((op) => [op.operationId, op.bodyDefaults]))).toEqual({
      createWebhook: { description: null },
      rotateWebhookSecret: { grace_period_seconds: 86_400 },
      updateMember: { revoke_keys: false },
    });
  });

  it.each([['the bundled contract', () => bundled, bundledDocument], ['a contract with another default', () => modified, changed]] as const)(
    'POST …/rotate-secret under %s: without a body, or with one that leaves the grace period out, keeps the old secret for the contract\'s default',
    async (_, server, document) => {
      const { call } = await adminWorld(server());
      const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
      const expected = bodyDefault(document, 'rotateWebhookSecret', 'grace_period_seconds');
      const withoutBody = await call({ method: 'POST', path: `/webhooks/${id}/rotate-secret` });
      expect(withoutBody.status).toBe(200);
      const emptyBody = await call({ method: 'POST', path: `/webhooks/${id}/rotate-secret`, body: {} });
      expect([graceOf(withoutBody.body as Rotated), graceOf(emptyBody.body as Rotated)]).toEqual([expected, expected]);
    },
  );

  it.each([['the bundled contract', 'they keep working', () => bundled, 200], ['a contract that defaults revoke_keys to true', 'they are revoked', () => modified, 401]] as const)(
    'PATCH …/members/{user_id} under %s: a demotion that leaves revoke_keys out does what the default says to the keys they created: %s',
    async (_, __, server, keyStatus) => {
      const { workspace, call } = await adminWorld(server());
      const ownerId = await createTestMember(server().store, workspace, 'owner');
      const key = await createTestKey(server().store, workspace, { userId: ownerId });
      const res = await call({ method: 'PATCH', path: `/members/${ownerId}`, body: { role: 'member' } });
      expect(res.status).toBe(200);
      expect((await send(server().url, { path: '/api/v1/me', key: key.key })).status).toBe(keyStatus);
    },
  );

  it.each([['the bundled contract', '24 hours', () => bundled], ['a contract with another default', '1 hour', () => modified]] as const)(
    'the console\'s rotate form under %s preselects the contract\'s default (%s)',
    async (_, label, server) => {
      const { api, browser } = await consoleMember({ on: server() });
      const { id } = await createWebhook(api, { url: 'http://127.0.0.1:9/hooks' });
      const page = await browser.get(`/console/webhooks/${id}`);
      const selected = /<select id="grace"[^>]*>.*?<\/select>/s.exec(page.html)?.[0].match(/<option [^>]*selected[^>]*>([^<]*)</g);
      expect(selected).toEqual([expect.stringContaining(`>${label}<`)]);
    },
  );
});
