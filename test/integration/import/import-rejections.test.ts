import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { importLines, importNdjson } from '../../../src/import/import-ndjson.js';
import { IMPORT_RECORD_TYPES as recordTypes } from '../../../src/import-engine/import-record-types.js';
import { ImportError } from '../../../src/import-engine/import-error.js';
import type { Store } from '../../../src/store/index.js';
import { createTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { categoryLine, competitorLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { storeContents, valueOf } from '../../support/database-rows.js';

let store: Store;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ store, cleanup } = await createTestStore());
});
afterEach(() => cleanup());

/** A workspace that already holds data, rollups included, so "unchanged" covers them too. */
async function seededWorkspace() {
  const workspace = await createTestWorkspace(store);
  const prompt = promptLine();
  const rival = competitorLine();
  await importLines(store, workspace.workspaceId, [
    categoryLine().line,
    rival.line,
    prompt.line,
    snapshotLine({ prompt_id: prompt.id, competitors: [rival.record.name] }).line,
    snapshotLine({ prompt_id: prompt.id, platform: 'claude', mentioned: false, cited: true }).line,
  ]);
  return workspace;
}

/** Checks that importing `lines` fails with `message` and changes nothing at all. */
async function expectRejected(workspaceId: string, lines: string[], message: string): Promise<void> {
  const before = await storeContents(store);
  const error = await importLines(store, workspaceId, lines).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ImportError);
  expect((error as ImportError).message).toBe(message);
  expect(await storeContents(store)).toEqual(before);
}

describe('import: rejections', () => {
  it('when a line is not JSON, fails naming the line and leaves the database unchanged', async () => {
    const { workspaceId } = await seededWorkspace();
    await expectRejected(
      workspaceId,
      [categoryLine().line, '{"type": "category", "id": ', categoryLine().line],
      `line 2: -: is not valid JSON (${parseErrorOf('{"type": "category", "id": ')})`,
    );
  });

  it('when a text holds NUL (\\u0000), fails naming the line and the field, on either store, and leaves the database unchanged', async () => {
    const { workspaceId } = await seededWorkspace();
    await expectRejected(
      workspaceId,
      [categoryLine().line, promptLine({ text: 'best crm\u0000' }).line],
      'line 2: text: must not hold NUL (\\u0000): text never does',
    );
    await expectRejected(
      workspaceId,
      [competitorLine({ name: '\u0000Rival' }).line],
      'line 1: name: must not hold NUL (\\u0000): text never does',
    );
  });

  it('when a line is JSON but not an object, fails naming the line', async () => {
    const { workspaceId } = await seededWorkspace();
    await expectRejected(workspaceId, [categoryLine().line, '["category"]'], 'line 2: -: must be a JSON object');
  });

  it('when the type is unknown, fails naming the type field', async () => {
    const { workspaceId } = await seededWorkspace();
    await expectRejected(
      workspaceId,
      [competitorLine().line, JSON.stringify({ type: 'brand', id: randomUUID() })],
      `line 2: type: "brand" is not one of ${recordTypes.map((t) => t.type).join(', ')}`,
    );
  });

  it('when a record has a field its type does not define, fails naming the field', async () => {
    const { workspaceId } = await seededWorkspace();
    await expectRejected(workspaceId, [categoryLine({ colour: 'red' }).line], 'line 1: colour: is not a known field');
  });

  it('when a required field is missing, fails naming the field', async () => {
    const { workspaceId } = await seededWorkspace();
    const { record } = competitorLine();
    delete record.domain;
    await expectRejected(workspaceId, [categoryLine().line, JSON.stringify(record)], 'line 2: domain: is required');
  });

  it('when a field has the wrong type, fails naming the field', async () => {
    const { workspaceId } = await seededWorkspace();
    await expectRejected(workspaceId, [categoryLine({ name: 42 }).line], 'line 1: name: must be a string, not 42');
    const prompt = promptLine();
    await expectRejected(workspaceId, [prompt.line, snapshotLine({ prompt_id: prompt.id, mentioned: 'yes' }).line], 'line 2: mentioned: must be true or false, not "yes"');
    await expectRejected(workspaceId, [prompt.line, snapshotLine({ prompt_id: prompt.id, competitors: 'Chartwise' }).line], 'line 2: competitors: must be an array, not "Chartwise"');
  });

  it('when an id is not a UUID, fails naming the field', async () => {
    const { workspaceId } = await seededWorkspace();
    await expectRejected(workspaceId, [categoryLine({ id: 'cat-1' }).line], 'line 1: id: must be a UUID (got "cat-1")');
    const urn = 'urn:uuid:6f1c1e0e-8a43-4a39-9d43-0e7f3d1c2b11';
    await expectRejected(workspaceId, [categoryLine({ id: urn }).line], `line 1: id: must be a UUID (got "${urn}")`);
  });

  it('when an id is already used by a record of another type, fails naming the id', async () => {
    const { workspaceId } = await seededWorkspace();
    const existing = categoryLine();
    await importLines(store, workspaceId, [existing.line]);
    await expectRejected(
      workspaceId,
      [competitorLine().line, competitorLine({ id: existing.id }).line],
      'line 2: id: is already used by a category record',
    );
  });

  it('when an id is already used in another workspace, fails naming the id', async () => {
    const other = await createTestWorkspace(store);
    const { workspaceId } = await seededWorkspace();
    const existing = categoryLine();
    await importLines(store, other.workspaceId, [existing.line]);
    await expectRejected(workspaceId, [categoryLine({ id: existing.id }).line], 'line 1: id: is already used by a record of another workspace');
  });

  it('when two competitors of a workspace share a name in any case, fails naming the name', async () => {
    const { workspaceId } = await seededWorkspace();
    const first = competitorLine({ name: 'Chartwise' });
    await expectRejected(
      workspaceId,
      [first.line, competitorLine({ name: 'CHARTWISE' }).line],
      `line 2: name: competitor ${first.id} of this workspace is already named "Chartwise" (names are matched case-insensitively)`,
    );
  });

  it('when a snapshot names an unknown platform, fails naming the platform field', async () => {
    const { workspaceId } = await seededWorkspace();
    const prompt = promptLine();
    await expectRejected(
      workspaceId,
      [prompt.line, snapshotLine({ prompt_id: prompt.id }).line, snapshotLine({ prompt_id: prompt.id, platform: 'bing_chat' }).line],
      'line 3: platform: "bing_chat" is not one of chatgpt, google_ai_overview, perplexity, gemini, grok, claude',
    );
  });

  it('when a snapshot names a competitor the workspace does not track, fails naming the array element', async () => {
    const { workspaceId } = await seededWorkspace();
    const prompt = promptLine();
    await expectRejected(
      workspaceId,
      [
        competitorLine({ name: 'Chartwise' }).line,
        prompt.line,
        snapshotLine({ prompt_id: prompt.id, competitors: ['chartwise', 'CHARTWISE', 'Brightlytics'] }).line,
        competitorLine({ name: 'Metricly' }).line,
      ],
      'line 3: competitors[2]: "Brightlytics" is not a competitor this workspace tracks',
    );
  });

  it("when a competitor name is another workspace's competitor, fails as untracked", async () => {
    const other = await createTestWorkspace(store);
    await importLines(store, other.workspaceId, [competitorLine({ name: 'Brightlytics' }).line]);
    const { workspaceId } = await seededWorkspace();
    const prompt = promptLine();
    await expectRejected(
      workspaceId,
      [prompt.line, snapshotLine({ prompt_id: prompt.id, competitors: ['Brightlytics'] }).line],
      'line 2: competitors[0]: "Brightlytics" is not a competitor this workspace tracks',
    );
  });

  it("when a record refers to another workspace's record, fails naming the reference", async () => {
    const other = await createTestWorkspace(store);
    const foreignPrompt = promptLine();
    const foreignCategory = categoryLine();
    await importLines(store, other.workspaceId, [foreignPrompt.line, foreignCategory.line]);
    const { workspaceId } = await seededWorkspace();
    await expectRejected(
      workspaceId,
      [promptLine().line, snapshotLine({ prompt_id: foreignPrompt.id }).line],
      'line 2: prompt_id: refers to a record of another workspace',
    );
    await expectRejected(workspaceId, [promptLine({ category_id: foreignCategory.id }).line], 'line 1: category_id: refers to a record of another workspace');
  });

  it('when a reference points to a record of another type, fails naming the reference', async () => {
    const { workspaceId } = await seededWorkspace();
    const category = categoryLine();
    await expectRejected(
      workspaceId,
      [category.line, snapshotLine({ prompt_id: category.id }).line],
      'line 2: prompt_id: refers to a category, not a prompt',
    );
  });

  it('when a forward reference is later defined as another type, fails naming the referring line', async () => {
    const { workspaceId } = await seededWorkspace();
    const id = '3b241101-e2bb-4255-8caf-4136c566a962';
    await expectRejected(
      workspaceId,
      [promptLine({ category_id: id }).line, competitorLine().line, competitorLine({ id }).line],
      'line 1: category_id: refers to a competitor, not a category',
    );
  });

  it('when a reference is never defined, fails naming the first line that refers to it', async () => {
    const { workspaceId } = await seededWorkspace();
    const missing = '0b9c6a07-3f2e-4c51-9f7a-2f5c8e1d4a10';
    const prompt = promptLine();
    await expectRejected(
      workspaceId,
      [prompt.line, snapshotLine({ prompt_id: missing }).line, snapshotLine({ prompt_id: missing }).line, snapshotLine({ prompt_id: prompt.id }).line],
      `line 2: prompt_id: no prompt with id ${missing} in this workspace`,
    );
  });

  it('when a snapshot id was used by a prompt of the same file, fails naming the id', async () => {
    const { workspaceId } = await seededWorkspace();
    const prompt = promptLine();
    await expectRejected(
      workspaceId,
      [prompt.line, snapshotLine({ id: prompt.id, prompt_id: prompt.id }).line],
      'line 2: id: is already used by a prompt record',
    );
  });

  it('when a nested field is wrong, names its JSON path', async () => {
    const { workspaceId } = await seededWorkspace();
    const prompt = promptLine();
    await expectRejected(
      workspaceId,
      [prompt.line, snapshotLine({ prompt_id: prompt.id, citations: [{ url: 'https://a.example/', title: 'A' }, { url: 'mailto:x@a.example', title: 'B' }] }).line],
      'line 2: citations[1].url: must be an http or https URL',
    );
    await expectRejected(
      workspaceId,
      [prompt.line, snapshotLine({ prompt_id: prompt.id, citations: [{ url: 'https://a.example/', title: 'A', rank: 1 }] }).line],
      'line 2: citations[0].rank: is not a known field',
    );
    await expectRejected(workspaceId, [promptLine({ created_at: '2026-02-30T10:00:00Z' }).line], 'line 1: created_at: must be an RFC 3339 date-time with a time zone, e.g. 2026-11-22T09:15:00.000Z (got "2026-02-30T10:00:00Z")');
    await expectRejected(workspaceId, [promptLine({ status: 'active' }).line], 'line 1: status: "active" is not one of PENDING, GENERATING, ACTIVE');
    await expectRejected(workspaceId, [promptLine({ category_id: 7 }).line], 'line 1: category_id: must be a string or null, not 7');
  });

  it('when a line is not valid UTF-8 (a bad sequence, a character cut short by the end of the file), fails naming the line, wherever the chunks are cut', async () => {
    const { workspaceId } = await seededWorkspace();
    const before = await storeContents(store);
    const good = `${categoryLine({ name: 'Caf\u00e9 \u2615' }).line}\n`;
    const cases: Array<[bytes: Buffer, message: string]> = [
      // An overlong encoding of "/" (0xC0 0xAF) in the middle of the second line.
      [Buffer.concat([Buffer.from(good), Buffer.from('{"type":"category","name":"a'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}\n')]), 'line 2: -: is not valid UTF-8'],
      // The file ends in the middle of a three-byte character.
      [Buffer.concat([Buffer.from(good + good), Buffer.from('\u2615').subarray(0, 2)]), 'line 3: -: is not valid UTF-8'],
    ];
    for (const [bytes, message] of cases) {
      for (const chunks of [[bytes], [...bytes].map((b) => Buffer.from([b]))]) {
        await expect(importNdjson(store, workspaceId, Readable.from(chunks))).rejects.toThrow(message);
        expect(await storeContents(store)).toEqual(before);
      }
    }
  });

  it('when a text holds U+FFFD itself (valid UTF-8), keeps it', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const replacement = categoryLine({ name: 'Unknown \uFFFD sign' });
    expect(await importNdjson(store, workspaceId, Readable.from([Buffer.from(`${replacement.line}\n`)]))).toMatchObject({ inserted: 1 });
    expect(await valueOf(store, 'SELECT name FROM categories WHERE id = ?', [replacement.id])).toBe('Unknown \uFFFD sign');
  });

  it('when a line is longer than the limit, fails naming the line instead of buffering it', async () => {
    const { workspaceId } = await seededWorkspace();
    const before = await storeContents(store);
    const input = Readable.from([`${categoryLine().line}\n`, 'x'.repeat(600), 'x'.repeat(600)]);
    await expect(importNdjson(store, workspaceId, input, { maxLineLength: 1000 })).rejects.toThrow('line 2: -: is longer than 1000 characters');
    expect(await storeContents(store)).toEqual(before);
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
