import { competitorLine, promptLine, snapshotLine } from '../../support/import-records.js';
import type { TestServer } from '../../support/test-server.js';
import type { TestWorkspace } from '../../support/accounts.js';
import { importRecords } from '../../support/visibility.js';
import { profileLine } from '../../support/workspace-records.js';

/** When the fixture's import runs: every answer it writes carries this `updated_at`. */
const IMPORTED_AT = '2026-11-22T11:30:00.000Z';

/**
 * Four answers of two prompts: two collected at the same instant (their order falls to the id),
 * one two days earlier, one outside a 7-day range. Texts hold commas, quotes and line breaks.
 */
export async function seedAnswers(server: TestServer, ws: TestWorkspace) {
  const p1 = promptLine({ text: 'Which CRM is best, and why?' });
  const p2 = promptLine({ text: 'Best "free" CRM' });
  const a1 = snapshotLine({
    prompt_id: p1.id, platform: 'chatgpt', collected_at: '2026-11-22T08:00:00.000Z', mentioned: true, cited: true,
    competitors: ['Initech', 'globex'],
    citations: [{ url: 'https://acme.example/pricing', title: 'Acme pricing' }, { url: 'https://reviews.example.org/best-crm', title: 'Best CRM, 2026' }],
    answer: 'Acme, Globex and "Initech" are\ncommon choices.',
  });
  const a2 = snapshotLine({
    prompt_id: p2.id, platform: 'perplexity', collected_at: '2026-11-22T10:00:00.000+02:00', mentioned: false, cited: false,
    competitors: [], citations: [], answer: 'Try a spreadsheet.\r\nOr nothing at all.',
  });
  const a3 = snapshotLine({
    prompt_id: p1.id, platform: 'perplexity', collected_at: '2026-11-20T23:59:59.999Z', mentioned: true, cited: false,
    competitors: ['Globex'], citations: [{ url: 'https://www.acme.example/blog', title: '' }], answer: 'Acme.',
  });
  const a4 = snapshotLine({
    prompt_id: p2.id, platform: 'chatgpt', collected_at: '2026-11-10T08:00:00.000Z', mentioned: true, cited: true,
    competitors: [], citations: [], answer: 'Old answer.',
  });
  await importRecords(server.store, ws, [
    profileLine({ domains: ['acme.example'] }),
    competitorLine({ name: 'Globex' }), competitorLine({ name: 'Initech' }),
    p1, p2, a1, a2, a3, a4,
  ], { now: () => new Date(IMPORTED_AT) });
  // a1 and a2 share an instant: newest first, then id descending.
  const [firstOfTie, secondOfTie] = a1.id > a2.id ? ['a1', 'a2'] : ['a2', 'a1'];
  return { p1, p2, a1, a2, a3, a4, tieOrder: [firstOfTie, secondOfTie] as Array<'a1' | 'a2'> };
}

export function expectedAnswers(s: Awaited<ReturnType<typeof seedAnswers>>) {
  return {
    a1: {
      id: s.a1.id,
      prompt: { id: s.p1.id, text: 'Which CRM is best, and why?' },
      platform: 'chatgpt',
      collected_at: '2026-11-22T08:00:00.000Z',
      mentioned: true,
      cited: true,
      competitors: ['Globex', 'Initech'],
      citations: [
        { url: 'https://acme.example/pricing', title: 'Acme pricing', domain: 'acme.example', is_own: true },
        { url: 'https://reviews.example.org/best-crm', title: 'Best CRM, 2026', domain: 'reviews.example.org', is_own: false },
      ],
      text: 'Acme, Globex and "Initech" are\ncommon choices.',
      updated_at: IMPORTED_AT,
    },
    a2: {
      id: s.a2.id,
      prompt: { id: s.p2.id, text: 'Best "free" CRM' },
      platform: 'perplexity',
      collected_at: '2026-11-22T08:00:00.000Z',
      mentioned: false,
      cited: false,
      competitors: [],
      citations: [],
      text: 'Try a spreadsheet.\r\nOr nothing at all.',
      updated_at: IMPORTED_AT,
    },
    a3: {
      id: s.a3.id,
      prompt: { id: s.p1.id, text: 'Which CRM is best, and why?' },
      platform: 'perplexity',
      collected_at: '2026-11-20T23:59:59.999Z',
      mentioned: true,
      cited: false,
      competitors: ['Globex'],
      citations: [{ url: 'https://www.acme.example/blog', title: '', domain: 'www.acme.example', is_own: true }],
      text: 'Acme.',
      updated_at: IMPORTED_AT,
    },
    a4: {
      id: s.a4.id,
      prompt: { id: s.p2.id, text: 'Best "free" CRM' },
      platform: 'chatgpt',
      collected_at: '2026-11-10T08:00:00.000Z',
      mentioned: true,
      cited: true,
      competitors: [],
      citations: [],
      text: 'Old answer.',
      updated_at: IMPORTED_AT,
    },
  };
}
