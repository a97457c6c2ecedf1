import { readFileSync } from 'node:fs';
import type { Express } from 'express';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { DEFAULT_DEMO_OPTIONS, generateDemoData } from '../../../src/demo/generate-demo-data.js';
import { importLines } from '../../../src/import/import-ndjson.js';
import { createMemberToken } from '../../../src/keys/member-tokens.js';
import type { Scope } from '../../../src/keys/scopes.js';
import type { AppDeps } from '../../../src/app.js';
import type { Store } from '../../../src/store/index.js';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { createTestKey, createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { onPostgres } from '../../support/store-kind.js';
import { createSqliteTestStore, NO_RATE_LIMIT, startTestServer, type TestServer } from '../../support/test-server.js';
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

interface DemoData {
  workspace: TestWorkspace;
  token: string;
  limitedKey: string;
}

const limitedScopes: Scope[] = ['visibility:read', 'iq:read'];

/**
 * The demo workspace in a store: one webhook, as a workspace in use has, subscribed before the data
 * arrives (the articles that arrive in a status are announced to it, so the reads of a webhook,
 * its deliveries and one delivery have something to read), the demo data through the import (as
 * `serve --demo` loads it), an owner's member token and a key lacking scopes.
 */
async function fillDemoWorkspace(store: Store, withoutPlan: boolean): Promise<DemoData> {
  const workspace = await createTestWorkspace(store, { name: 'Acme Analytics (demo)' });
  await createTestWebhook(store, workspace, { url: 'http://127.0.0.1:9/nobody-listens', events: ['content.status_updated'] });
  const lines = [...generateDemoData({ ...SMALL_DEMO, idNamespace: workspace.workspaceId })];
  // A workspace whose billing has not been imported yet: the plan is a documented absent state.
  await importLines(store, workspace.workspaceId, withoutPlan ? lines.filter((l) => !l.includes('"type":"workspace_plan"')) : lines);
  const token = (await createMemberToken(store, { workspaceId: workspace.workspaceId, userId: workspace.ownerId, name: 'QA' })).token;
  const limitedKey = (await createTestKey(store, workspace, { scopes: limitedScopes, name: 'Limited' })).key;
  return { workspace, token, limitedKey };
}

/**
 * On SQLite the demo workspace is made once per process (and per `withoutPlan`) into a file whose
 * bytes each server gets a copy of: the import is most of what starting a demo server costs, and
 * every test still serves a database of its own. The file itself is removed at once: vitest ends
 * its workers without the `exit` event, so a removal at exit would leave it in the temp folder.
 */
const templates = new Map<boolean, Promise<DemoData & { bytes: Buffer }>>();

function demoTemplate(withoutPlan: boolean): Promise<DemoData & { bytes: Buffer }> {
  let template = templates.get(withoutPlan);
  if (!template) {
    template = (async () => {
      const { store, file, cleanup } = createSqliteTestStore();
      try {
        const data = await fillDemoWorkspace(store, withoutPlan);
        // Closed, so that the file holds everything (no write-ahead log beside it) and copies whole.
        store.db.close();
        return { ...data, bytes: readFileSync(file) };
      } finally {
        cleanup();
      }
    })();
    templates.set(withoutPlan, template);
  }
  return template;
}

/** A copy of the demo template, opened as the server opens its file; `remove` deletes it. */
async function demoStoreCopy(withoutPlan: boolean): Promise<DemoData & { store: SqliteStore; remove: () => void }> {
  const { bytes, ...data } = await demoTemplate(withoutPlan);
  const { store, cleanup } = createSqliteTestStore(bytes);
  return { ...data, store, remove: cleanup };
}

/**
 * The real app on a loopback port over a fresh database holding the demo workspace
 * (`fillDemoWorkspace`) and a workspace owner's key. `withoutPlan` leaves the plan record out of
 * the import. The rate limit is raised so a whole run fits in one window, unless the test sets its own.
 */
export async function startDemoServer(
  { withoutPlan = false, ...options }: Partial<AppDeps> & { wrap?: (app: Express) => Express; withoutPlan?: boolean } = {},
): Promise<DemoServer> {
  const settings = {
    rateLimit: NO_RATE_LIMIT,
    // The checker under test validates every answer itself; the server-side copy would only slow it.
    validateResponses: false,
    allowPrivateWebhookTargets: true,
    ...options,
  };
  let server: TestServer;
  let data: DemoData;
  if (onPostgres()) {
    server = await startTestServer(settings);
    data = await fillDemoWorkspace(server.store, withoutPlan);
  } else {
    const { store, remove, ...copied } = await demoStoreCopy(withoutPlan);
    const served = await startTestServer({ ...settings, store });
    server = { ...served, close: async () => {
      await served.close();
      remove();
    } };
    data = copied;
  }
  const { workspace, token, limitedKey } = data;
  return { server, workspace, token, limitedKey, limitedScopes, args: ['--base-url', server.url, '--key', workspace.key] };
}
