import { promptLine, snapshotLine } from '../../support/import-records.js';
import type { TestWorkspace } from '../../support/accounts.js';
import type { TestServer } from '../../support/test-server.js';
import { importRecords } from '../../support/visibility.js';

/** Today, for every test of this folder (the app runs on this clock). */
export const NOW = new Date('2026-11-22T12:00:00.000Z');

/**
 * `n` answers of one prompt over the last days, with long texts: a page of the answers list is
 * well over 1 KiB and the exports span several 64 KiB chunks.
 */
export async function seedManyAnswers(server: TestServer, ws: TestWorkspace, n: number): Promise<{ promptId: string }> {
  const prompt = promptLine({ text: 'Which analytics tool should a startup pick?' });
  const answers = Array.from({ length: n }, (_, i) => snapshotLine({
    prompt_id: prompt.id,
    platform: ['chatgpt', 'perplexity', 'claude'][i % 3],
    collected_at: new Date(NOW.getTime() - (i + 1) * 60_000).toISOString(),
    mentioned: i % 2 === 0,
    cited: i % 5 === 0,
    answer: `Answer ${i}: ${'Acme is a solid pick for product analytics, with "funnels", cohorts, and a free tier. '.repeat(6)}`,
  }));
  await importRecords(server.store, ws, [prompt, ...answers]);
  return { promptId: prompt.id };
}
