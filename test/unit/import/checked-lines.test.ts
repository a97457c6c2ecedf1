import { describe, expect, it } from 'vitest';
import { checkedLines } from '../../../src/import/checked-lines.js';
import { ImportError } from '../../../src/import-engine/import-error.js';
import { categoryLine, promptLine, snapshotLine } from '../../support/import-records.js';

/** The error the import reports for a file of these lines (checked as the import checks them). */
async function problemOf(lines: string[]): Promise<{ line: number; field: string; problem: string }> {
  async function* batches() {
    yield lines;
  }
  try {
    for await (const batch of checkedLines(batches())) void batch;
  } catch (err) {
    expect(err).toBeInstanceOf(ImportError);
    const { line, field, problem } = err as ImportError;
    return { line, field, problem };
  }
  throw new Error('the lines were accepted');
}

// What a data producer reads when a line breaks a length or size limit of the import format
// (import-format/): the field and the limit, in words, never ajv's own message.
describe('the problem an import reports for a refused line', () => {
  it('a line without a type: type is required', async () => {
    expect(await problemOf([categoryLine().line, JSON.stringify({ id: 'x', name: 'Pricing' })]))
      .toEqual({ line: 2, field: 'type', problem: 'is required' });
  });

  it('an empty name: must not be empty', async () => {
    expect(await problemOf([categoryLine({ name: '' }).line])).toEqual({ line: 1, field: 'name', problem: 'must not be empty' });
  });

  it('a name over its maximum length: names the maximum', async () => {
    expect(await problemOf([categoryLine({ name: 'x'.repeat(201) }).line]))
      .toEqual({ line: 1, field: 'name', problem: 'must be at most 200 characters' });
  });

  it('a list over its maximum size: names the maximum', async () => {
    const prompt = promptLine();
    const competitors = Array.from({ length: 1001 }, (_, i) => `Rival ${i}`);
    expect(await problemOf([prompt.line, snapshotLine({ prompt_id: prompt.id, competitors }).line]))
      .toEqual({ line: 2, field: 'competitors', problem: 'must have at most 1000 items' });
  });

  it('NUL in an item of a list: names the item', async () => {
    const prompt = promptLine();
    expect(await problemOf([prompt.line, snapshotLine({ prompt_id: prompt.id, competitors: ['Rival', 'Ri\u0000val'] }).line]))
      .toEqual({ line: 2, field: 'competitors[1]', problem: 'must not hold NUL (\\u0000): text never does' });
  });
});
