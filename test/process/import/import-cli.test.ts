import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { createSqliteTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { holdWriteLock } from '../../support/write-lock.js';
import { CLI, runCliInProcess, startCliInProcess } from '../../cli/run-cli.js';
import { categoryLine, competitorLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { storeContents } from '../../support/database-rows.js';
import { articleLine, changed, outboxEvents, topicLine } from '../../support/content-records.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let store: SqliteStore;
let file: string;
let cleanup: () => void;

beforeEach(() => {
  ({ store, file, cleanup } = createSqliteTestStore());
});
afterEach(() => cleanup());

/**
 * Runs the real command line as a separate process on the test database, standard input a pipe
 * holding `stdin`: what a user's shell does, exit code and output as the process leaves them.
 */
function spawned(args: string[], stdin: string | Buffer = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args, '--db', file], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/**
 * The same command line run in this process (the entry the bin uses, with its own streams), on the
 * test database: each process start costs more CPU than the import it runs, so the tests of what
 * the command does with a file use this, and two tests spawn it for what a process adds: a file's
 * summary as a user's shell prints it, and standard input from a pipe.
 */
function cli(args: string[], stdin: string | Buffer = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCliInProcess([...args, '--db', file], stdin);
}

function dataset() {
  const rival = competitorLine({ name: 'Chartwise' });
  const prompt = promptLine();
  return [rival.line, prompt.line, snapshotLine({ prompt_id: prompt.id, competitors: ['chartwise'] }).line, snapshotLine({ prompt_id: prompt.id, platform: 'claude' }).line];
}

describe('cli: import', () => {
  it('when given a file, imports it and prints the summary; --json prints it as JSON', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const ndjson = path.join(path.dirname(file), 'data.ndjson');
    writeFileSync(ndjson, `${dataset().join('\n')}\n`);

    const first = await spawned(['import', '--workspace', workspaceId, ndjson]);
    expect(first).toEqual({ code: 0, stdout: 'imported 4 records: 4 inserted, 0 updated, 0 unchanged; 0 webhook events\n', stderr: '' });

    const again = await cli(['import', ndjson, '--workspace', workspaceId, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ records: 4, inserted: 0, updated: 0, unchanged: 4, deleted: 0, events: 0, events_suppressed: 0 });

    const flagBeforeFile = await cli(['import', '--workspace', workspaceId, '--json', ndjson]);
    expect(flagBeforeFile.code).toBe(0);
    expect(JSON.parse(flagBeforeFile.stdout)).toEqual({ records: 4, inserted: 0, updated: 0, unchanged: 4, deleted: 0, events: 0, events_suppressed: 0 });
  });

  it('when FILE is -, reads standard input', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const result = await spawned(['import', '--workspace', workspaceId, '-', '--json'], dataset().join('\n'));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ records: 4, inserted: 4, updated: 0, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 });
    expect(store.db.prepare('SELECT count(*) FROM snapshots WHERE workspace_id = ?').pluck().get(workspaceId)).toBe(2);
  });

  it('when a line is not JSON, exits 1 naming the line on stderr and writes nothing', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const before = await storeContents(store);
    const result = await cli(['import', '--workspace', workspaceId, '-'], `${dataset().join('\n')}\nnot json\n`);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: line 5: -: is not valid JSON \(.+\)\n$/);
    expect(await storeContents(store)).toEqual(before);
  });

  it('when a line is not valid UTF-8, exits 1 naming the line and writes nothing, instead of storing U+FFFD', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const before = await storeContents(store);
    // "Caf\xE9" is Latin-1, not UTF-8: a lone 0xE9 byte begins a three-byte character that never comes.
    const latin1 = Buffer.from(categoryLine({ name: 'Caf\u00e9' }).line, 'latin1');
    const input = Buffer.concat([Buffer.from(`${categoryLine().line}\n`), latin1, Buffer.from(`\n${categoryLine().line}\n`)]);
    const result = await cli(['import', '--workspace', workspaceId, '-'], input);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'error: line 2: -: is not valid UTF-8\n' });
    expect(await storeContents(store)).toEqual(before);
  });

  it('when a snapshot names an untracked competitor, exits 1 with line and field and writes nothing', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const prompt = promptLine();
    const before = await storeContents(store);
    const result = await cli(['import', '--workspace', workspaceId, '-'], [prompt.line, snapshotLine({ prompt_id: prompt.id, competitors: ['Nobody'] }).line].join('\n'));
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'error: line 2: competitors[0]: "Nobody" is not a competitor this workspace tracks\n' });
    expect(await storeContents(store)).toEqual(before);
  });

  it('when another import holds the database, waits its turn saying so on stderr, then imports', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const ndjson = path.join(path.dirname(file), 'data.ndjson');
    writeFileSync(ndjson, `${dataset().join('\n')}\n`);
    // The other import: the write lock held from another connection for as long as this test likes.
    const lock = holdWriteLock(file);
    const run = startCliInProcess(['import', '--workspace', workspaceId, ndjson, '--json', '--db', file]);
    // It is waiting, not failing: the other import may take minutes. Let it finish now.
    await run.waitForStderr(/another import is running; waiting/).finally(() => lock.release());
    const result = await run.exited;
    expect(result).toEqual({
      code: 0,
      stdout: '{"records":4,"inserted":4,"updated":0,"unchanged":0,"deleted":0,"events":0,"events_suppressed":0}\n',
      stderr: 'another import is running; waiting for it to finish…\n',
    });
    expect(store.db.prepare('SELECT count(*) FROM snapshots WHERE workspace_id = ?').pluck().get(workspaceId)).toBe(2);
  });

  it('when another import holds the database and --no-wait is given, refuses at once with exit 1 and writes nothing', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const before = await storeContents(store);
    const lock = holdWriteLock(file);
    const result = await cli(['import', '--workspace', workspaceId, '--no-wait', '-'], dataset().join('\n')).finally(() => lock.release());
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: another import is running; not waiting (--no-wait): run it again later, or without --no-wait to wait for its turn\n',
    });
    expect(await storeContents(store)).toEqual(before);
  });

  it('when the file or the workspace does not exist, exits 1 saying so', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    expect(await cli(['import', '--workspace', workspaceId, path.join(path.dirname(file), 'missing.ndjson')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot read ${path.join(path.dirname(file), 'missing.ndjson')}: ENOENT\n`,
    });
    expect(await cli(['import', '--workspace', '00000000-0000-4000-8000-000000000000', '-'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: workspace 00000000-0000-4000-8000-000000000000 does not exist\n',
    });
  });
});

// With the tests above rather than in a file of its own: each file of the slow lane starts a
// worker process and loads its imports again.
describe('cli: import --no-events', () => {
  it('when a backfill runs with --no-events, writes the records and no event, and says how many it suppressed', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine({ stage: 'READY' });
    const article = articleLine({ status: 'PUBLISHED', topic_id: topic.id });
    const ndjson = path.join(path.dirname(file), 'backfill.ndjson');
    writeFileSync(ndjson, `${topic.line}\n${article.line}\n`);

    const backfill = await cli(['import', '--workspace', workspaceId, '--no-events', ndjson]);
    expect(backfill).toEqual({
      code: 0,
      stdout: 'imported 2 records: 2 inserted, 0 updated, 0 unchanged; 0 webhook events (2 suppressed by --no-events)\n',
      stderr: '',
    });
    expect(await outboxEvents(store, workspaceId)).toEqual([]);
    expect((await store.content.getArticle(workspaceId, article.id))?.status).toBe('PUBLISHED');

    // The next ordinary import announces the changes it makes.
    writeFileSync(ndjson, `${changed(topic, { stage: 'COMPLETED' }).line}\n`);
    const next = await cli(['import', '--workspace', workspaceId, ndjson, '--json']);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toEqual({ records: 1, inserted: 0, updated: 1, unchanged: 0, deleted: 0, events: 1, events_suppressed: 0 });
    expect((await outboxEvents(store, workspaceId)).map((e) => e.type)).toEqual(['topic.status_updated']);
  });
});
