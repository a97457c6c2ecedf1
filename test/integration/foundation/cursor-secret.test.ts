import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { createMigratedPostgresDatabase, dropPostgresDatabase } from '../../support/postgres.js';
import { onPostgres } from '../../support/store-kind.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

// Cursors are signed with one secret shared by every instance over a database: CURSOR_SECRET when
// it is set, otherwise the secret the first instance to start generated into the database.

/** The address of a new database of the store this run tests, removed when the test finishes. */
async function freshDatabase(): Promise<string> {
  if (onPostgres()) {
    const url = await createMigratedPostgresDatabase('wsapi_secret');
    onTestFinished(() => dropPostgresDatabase(url));
    return url;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-secret-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'service.db');
}

/** An instance of the service over `address`, with its own connection(s), as a separate process has. */
async function instance(address: string, cursorSecret?: string): Promise<TestServer> {
  const store: Store = await openStore(address, { serving: true });
  const server = await startTestServer({ store, cursorSecret });
  onTestFinished(async () => {
    await server.close();
    await store.close().catch(() => undefined);
  });
  return server;
}

/** A cursor of the content feed: the feed gives one even when empty. */
async function feedCursor(server: TestServer, workspace: TestWorkspace): Promise<string> {
  const res = await send(server.url, { path: '/api/v1/content/events', query: { limit: 1 } }, workspace.key);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { next_cursor: string } }).data.next_cursor;
}

async function statusWithCursor(server: TestServer, workspace: TestWorkspace, cursor: string): Promise<number> {
  return (await send(server.url, { path: '/api/v1/content/events', query: { cursor } }, workspace.key)).status;
}

describe('the cursor secret', () => {
  it('instances starting together over a new database agree on one secret: a cursor from any of them pages on every other, and after a restart', async () => {
    const address = await freshDatabase();
    const servers = await Promise.all([instance(address), instance(address), instance(address)]);
    const workspace = await createTestWorkspace(servers[0].store);
    for (const from of servers) {
      const cursor = await feedCursor(from, workspace);
      for (const to of servers) expect(await statusWithCursor(to, workspace, cursor)).toBe(200);
    }
    const cursor = await feedCursor(servers[0], workspace);
    for (const server of servers) await server.close();
    expect(await statusWithCursor(await instance(address), workspace, cursor)).toBe(200);
  }, 60_000);

  it('CURSOR_SECRET, when set, signs instead of the stored secret: cursors of one secret are 422 under the other', async () => {
    const address = await freshDatabase();
    const stored = await instance(address);
    const configured = await instance(address, 'a-configured-cursor-secret-of-40-chars!!');
    const alsoConfigured = await instance(address, 'a-configured-cursor-secret-of-40-chars!!');
    const workspace = await createTestWorkspace(stored.store);
    const fromConfigured = await feedCursor(configured, workspace);
    expect(await statusWithCursor(alsoConfigured, workspace, fromConfigured)).toBe(200);
    expect(await statusWithCursor(stored, workspace, fromConfigured)).toBe(422);
    expect(await statusWithCursor(configured, workspace, await feedCursor(stored, workspace))).toBe(422);
  });
});
