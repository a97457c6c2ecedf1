import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateDemoData } from '../../src/demo/generate-demo-data.js';
import { importLines } from '../../src/import/import-ndjson.js';
import { createMemberToken } from '../../src/keys/member-tokens.js';
import { createTestWorkspace } from '../support/accounts.js';
import { SMALL_DEMO } from '../integration/contract-test/demo-server.js';
import { firstJsonLine, jsonOf, runCli, spawnCli, tempDatabase } from './run-cli.js';

let db: ReturnType<typeof tempDatabase> | undefined;
afterEach(() => {
  db?.cleanup();
  db = undefined;
});

// Two real processes, as a QA team runs them: the service (`serve`) and the checker pointed at it.
// The whole run of every read against a served demo workspace is CI's smoke (.ci/smoke.sh); here the
// two processes talk over a few operations of both credentials: key reads with the lists their ids
// come from, an export, and a read of the administration API.
describe('workspace-api contract-test (spawned)', { timeout: 60_000 }, () => {
  const OPERATIONS = ['listPrompts', 'getPromptAnalytics', 'listAnswers', 'exportAnswers', 'listApiKeys'];

  it('checks a served database with demo data over HTTP: exit 0, JSON report, JUnit file', async () => {
    db = tempDatabase();
    const store = db.open();
    const workspace = await createTestWorkspace(store);
    await importLines(store, workspace.workspaceId, generateDemoData({ ...SMALL_DEMO, idNamespace: workspace.workspaceId }));
    const token = (await createMemberToken(store, { workspaceId: workspace.workspaceId, userId: workspace.ownerId })).token;
    store.db.close();

    const { child, exited } = spawnCli(['serve', '--port', '0', '--db', db.file, '--json'], { RATE_LIMIT_QUOTA: '100000', AUTH_FAILURE_QUOTA: '100000' });
    try {
      const { url } = await firstJsonLine(child);
      const junit = path.join(path.dirname(db.file), 'contract-test.xml');
      const result = await runCli(['contract-test', '--base-url', String(url), '--key', workspace.key, '--token', token, '--seed', '9', '--junit', junit, '--json', '--operations', OPERATIONS.join(',')]);
      const report = jsonOf(result) as { failures: unknown[]; requests: number; coverage: Array<{ observed: number[] }> };
      expect(report.failures).toEqual([]);
      expect(report.requests).toBeGreaterThan(100);
      expect(existsSync(junit)).toBe(true);
      expect(readFileSync(junit, 'utf8')).toMatch(/<testsuites name="workspace-api contract-test" tests="\d+" failures="0"/);
      expect(result.stderr).toContain(`reading Workspace Read API`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
