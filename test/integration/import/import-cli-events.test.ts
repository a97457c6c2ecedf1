import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteTestStoreForThisTest } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { articleLine, changed, outboxEvents, topicLine } from '../../support/content-records.js';
import { jsonOf, runCli } from '../../cli/run-cli.js';

describe('cli: import --no-events', () => {
  it('when a backfill runs with --no-events, writes the records and no event, and says how many it suppressed', async () => {
    const { store, file } = sqliteTestStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine({ stage: 'READY' });
    const article = articleLine({ status: 'PUBLISHED', topic_id: topic.id });
    const ndjson = path.join(path.dirname(file), 'backfill.ndjson');
    writeFileSync(ndjson, `${topic.line}\n${article.line}\n`);

    const backfill = await runCli(['import', '--workspace', workspaceId, '--no-events', ndjson, '--db', file]);
    expect(backfill).toEqual({
      code: 0,
      stdout: 'imported 2 records: 2 inserted, 0 updated, 0 unchanged; 0 webhook events (2 suppressed by --no-events)\n',
      stderr: '',
    });
    expect(await outboxEvents(store, workspaceId)).toEqual([]);
    expect((await store.content.getArticle(workspaceId, article.id))?.status).toBe('PUBLISHED');

    // The next ordinary import announces the changes it makes.
    writeFileSync(ndjson, `${changed(topic, { stage: 'COMPLETED' }).line}\n`);
    expect(jsonOf(await runCli(['import', '--workspace', workspaceId, ndjson, '--json', '--db', file])))
      .toEqual({ records: 1, inserted: 0, updated: 1, unchanged: 0, deleted: 0, events: 1, events_suppressed: 0 });
    expect((await outboxEvents(store, workspaceId)).map((e) => e.type)).toEqual(['topic.status_updated']);
  });
});
