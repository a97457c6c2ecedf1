import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLines, importNdjson } from '../../../src/import/import-ndjson.js';
import { openPostgresStore } from '../../../src/store/index.js';
import type { PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { startPostgresCluster, type PostgresCluster } from '../../../scripts/postgres-cluster.js';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { categoryLine, promptLine } from '../../support/import-records.js';
import { postgresAvailable } from '../../support/postgres.js';
import { runCliInProcess } from '../../cli/run-cli.js';

// The file stops its server: it runs its own PostgreSQL cluster, never the run's shared one.
let cluster: PostgresCluster;
let store: PostgresStore;
let dir: string;

/** Rows the import would have written for the workspace: prompts, categories and webhook events. */
async function written(ws: TestWorkspace): Promise<number[]> {
  const counts = [];
  for (const table of ['prompts', 'categories', 'webhook_events']) {
    const { rows } = await store.pool.query<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = $1`, [ws.workspaceId]);
    counts.push(rows[0]!.n);
  }
  return counts;
}

describe.skipIf(!postgresAvailable())('an import into a PostgreSQL that does not answer', () => {
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    store = await openPostgresStore(cluster.url());
    dir = mkdtempSync(path.join(tmpdir(), 'wsapi-import-down-'));
  });
  afterAll(async () => {
    await store?.close();
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('from the command line, fails in one line naming the server, exit code 1, and writes nothing', async () => {
    const ws = await createTestWorkspace(store);
    const file = path.join(dir, 'records.ndjson');
    writeFileSync(file, `${categoryLine().line}\n${promptLine().line}\n`);
    cluster.halt();
    let result;
    try {
      result = await runCliInProcess(['import', '--workspace', ws.workspaceId, '--db', cluster.url(), file]);
    } finally {
      cluster.resume();
    }
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^error: cannot reach PostgreSQL at postgres://postgres@127\\.0\\.0\\.1:${cluster.port}/postgres: .+\\n$`));
    expect(await written(ws)).toEqual([0, 0, 0]);
  });

  it('when the server goes away in the middle of the file, rejects, leaves the process running, and nothing of the file is there once it is back', async () => {
    const ws = await createTestWorkspace(store);
    const category = categoryLine();
    // Half the file, then the server stops while the import holds its transaction, then the rest.
    async function* halves(): AsyncGenerator<string> {
      yield `${category.line}\n`;
      for (let i = 0; i < 2_500; i++) yield `${promptLine({ status: 'ACTIVE' }).line}\n`;
      // The first batches are with the server, inside the import's transaction.
      await new Promise((resolve) => setTimeout(resolve, 300));
      cluster.halt();
      for (let i = 0; i < 2_500; i++) yield `${promptLine({ status: 'ACTIVE' }).line}\n`;
    }
    try {
      await expect(importNdjson(store, ws.workspaceId, halves())).rejects.toThrow();
    } finally {
      cluster.resume();
    }
    expect(await written(ws)).toEqual([0, 0, 0]);
    // The pool gave up its broken connection: the next import on the same store commits.
    const summary = await importLines(store, ws.workspaceId, [category.line]);
    expect(summary.inserted).toBe(1);
  });
});
