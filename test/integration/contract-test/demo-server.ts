import type { Express } from 'express';
import { loadOpenApiDocument } from '../../../src/contract.js';
import { DEFAULT_DEMO_OPTIONS, generateDemoData } from '../../../src/demo/generate-demo-data.js';
import { importLines } from '../../../src/import/import-ndjson.js';
import { createMemberToken } from '../../../src/keys/member-tokens.js';
import type { Scope } from '../../../src/keys/scopes.js';
import type { AppDeps } from '../../../src/app.js';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { createTestKey, createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { createTestWebhook } from '../../support/webhooks.js';

const operations = Object.values((loadOpenApiDocument() as { paths: Record<string, Record<string, { operationId?: string; security?: Array<Record<string, unknown>> }>> }).paths)
  .flatMap((item) => Object.entries(item).flatMap(([method, op]) => (op.operationId ? [{ method, ...op }] : [])));

/** Operations a run never sends a successful request to, whatever its options: they change what is not the run's. */
export const NEVER_SENT = ['removeMember', 'updateMember', 'redeliverWebhookDelivery'];
/** Every write: reached only with `--allow-writes`. */
export const WRITES = operations.filter((op) => op.method !== 'get' && op.method !== 'head').map((op) => op.operationId!);
/** Operations only a member token reaches: `--token`. */
export const MEMBER_TOKEN_ONLY = operations.filter((op) => op.security?.every((r) => 'MemberToken' in r)).map((op) => op.operationId!);

/** `--allow-unreached` naming these. */
export function allowUnreached(...lists: Array<readonly string[]>): string[] {
  return ['--allow-unreached', [...new Set(lists.flat())].join(',')];
}

/** Small enough to import in a couple of seconds, with every kind of record the demo has. */
export const SMALL_DEMO = { ...DEFAULT_DEMO_OPTIONS, prompts: 6, days: 14 };

export interface DemoServer {
  server: TestServer;
  workspace: TestWorkspace;
  /** An owner's member token for the administration API. */
  token: string;
  /** A key holding only `visibility:read` and `iq:read`. */
  limitedKey: string;
  limitedScopes: Scope[];
  /** The arguments every run against this server takes. */
  args: string[];
}

/**
 * The real app on a loopback port over a fresh database holding the demo data (through the import,
 * as `serve --demo` loads it) and one webhook, a workspace owner's key and member token, and a key
 * lacking scopes. `withoutPlan` leaves the plan record out of the import.
 * The rate limit is raised so a whole run fits in one window, unless the test sets its own.
 */
export async function startDemoServer(
  { withoutPlan = false, ...options }: Partial<AppDeps> & { store?: SqliteStore; wrap?: (app: Express) => Express; withoutPlan?: boolean } = {},
): Promise<DemoServer> {
  const server = await startTestServer({
    rateLimit: { quota: 100_000, windowSeconds: 60, authFailureQuota: 100_000 },
    // The checker under test validates every answer itself; the server-side copy would only slow it.
    validateResponses: false,
    allowPrivateWebhookTargets: true,
    ...options,
  });
  const workspace = await createTestWorkspace(server.store, { name: 'Acme Analytics (demo)' });
  // One webhook, as a workspace in use has, subscribed before the data arrives: the articles that
  // arrive in a status are announced to it, so the reads of a webhook, its deliveries and one
  // delivery have something to read.
  await createTestWebhook(server.store, workspace, { url: 'http://127.0.0.1:9/nobody-listens', events: ['content.status_updated'] });
  const lines = [...generateDemoData({ ...SMALL_DEMO, idNamespace: workspace.workspaceId })];
  // A workspace whose billing has not been imported yet: the plan is a documented absent state.
  await importLines(server.store, workspace.workspaceId, withoutPlan ? lines.filter((l) => !l.includes('"type":"workspace_plan"')) : lines);
  const token = (await createMemberToken(server.store, { workspaceId: workspace.workspaceId, userId: workspace.ownerId, name: 'QA' })).token;
  const limitedScopes: Scope[] = ['visibility:read', 'iq:read'];
  const limitedKey = (await createTestKey(server.store, workspace, { scopes: limitedScopes, name: 'Limited' })).key;
  return { server, workspace, token, limitedKey, limitedScopes, args: ['--base-url', server.url, '--key', workspace.key] };
}
