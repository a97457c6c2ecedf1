import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { importLines, importNdjson } from '../../../src/import/import-ndjson.js';
import { recordTypes } from '../../../src/import/records/index.js';
import { ImportError } from '../../../src/import/import-error.js';
import type { Store } from '../../../src/store/index.js';
import { createTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { categoryLine, competitorLine, databaseContents } from '../../support/import-records.js';

let store: Store;
let cleanup: () => void;

beforeEach(() => {
  ({ store, cleanup } = createTestStore());
});
afterEach(() => cleanup());

/** Seeds a workspace, then checks that importing `lines` fails with `message` and changes nothing at all. */
async function expectRejected(workspaceId: string, lines: string[], message: string): Promise<void> {
  const before = databaseContents(store.db);
  const error = await importLines(store, workspaceId, lines).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ImportError);
  expect((error as ImportError).message).toBe(message);
  expect(databaseContents(store.db)).toEqual(before);
}

describe('import: rejections', () => {
  it('when a line is not JSON, fails naming the line and leaves the database unchanged', async () => {
    const { workspaceId } = createTestWorkspace(store);
    await expectRejected(
      workspaceId,
      [categoryLine().line, '{"type": "category", "id": ', categoryLine().line],
      `line 2: -: is not valid JSON (${parseErrorOf('{"type": "category", "id": ')})`,
    );
  });

  it('when a line is JSON but not an object, fails naming the line', async () => {
    const { workspaceId } = createTestWorkspace(store);
    await expectRejected(workspaceId, [categoryLine().line, '["category"]'], 'line 2: -: must be a JSON object');
  });

  it('when the type is unknown, fails naming the type field', async () => {
    const { workspaceId } = createTestWorkspace(store);
    await expectRejected(
      workspaceId,
      [competitorLine().line, JSON.stringify({ type: 'brand', id: randomUUID() })],
      `line 2: type: "brand" is not one of ${recordTypes.map((t) => t.type).join(', ')}`,
    );
  });

  it('when a record has a field its type does not define, fails naming the field', async () => {
    const { workspaceId } = createTestWorkspace(store);
    await expectRejected(workspaceId, [categoryLine({ colour: 'red' }).line], 'line 1: colour: is not a known field');
  });

  it('when a required field is missing, fails naming the field', async () => {
    const { workspaceId } = createTestWorkspace(store);
    const { record } = competitorLine();
    delete record.domain;
    await expectRejected(workspaceId, [categoryLine().line, JSON.stringify(record)], 'line 2: domain: is required');
  });

  it('when a field has the wrong type, fails naming the field', async () => {
    const { workspaceId } = createTestWorkspace(store);
    await expectRejected(workspaceId, [categoryLine({ name: 42 }).line], 'line 1: name: must be a string, not 42');
  });

  it('when an id is not a UUID, fails naming the field', async () => {
    const { workspaceId } = createTestWorkspace(store);
    await expectRejected(workspaceId, [categoryLine({ id: 'cat-1' }).line], 'line 1: id: must be a UUID (got "cat-1")');
  });

  it('when an id is already used by a record of another type, fails naming the id', async () => {
    const { workspaceId } = createTestWorkspace(store);
    const existing = categoryLine();
    await importLines(store, workspaceId, [existing.line]);
    await expectRejected(
      workspaceId,
      [competitorLine().line, competitorLine({ id: existing.id }).line],
      'line 2: id: is already used by a category record',
    );
  });

  it('when an id is already used in another workspace, fails naming the id', async () => {
    const other = createTestWorkspace(store);
    const { workspaceId } = createTestWorkspace(store);
    const existing = categoryLine();
    await importLines(store, other.workspaceId, [existing.line]);
    await expectRejected(workspaceId, [categoryLine({ id: existing.id }).line], 'line 1: id: is already used by a record of another workspace');
  });

  it('when two competitors of a workspace share a name in any case, fails naming the name', async () => {
    const { workspaceId } = createTestWorkspace(store);
    const first = competitorLine({ name: 'Chartwise' });
    await expectRejected(
      workspaceId,
      [first.line, competitorLine({ name: 'CHARTWISE' }).line],
      `line 2: name: competitor ${first.id} of this workspace is already named "Chartwise" (names are matched case-insensitively)`,
    );
  });

  it('when a line is longer than the limit, fails naming the line instead of buffering it', async () => {
    const { workspaceId } = createTestWorkspace(store);
    const before = databaseContents(store.db);
    const input = Readable.from([`${categoryLine().line}\n`, 'x'.repeat(600), 'x'.repeat(600)]);
    await expect(importNdjson(store, workspaceId, input, { maxLineLength: 1000 })).rejects.toThrow('line 2: -: is longer than 1000 characters');
    expect(databaseContents(store.db)).toEqual(before);
  });
});

/** V8's own wording, which the import passes on. */
function parseErrorOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${text} is valid JSON`);
}
