import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { competitorLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { articleLine, ideaLine, researchBatchLine, topicLine } from '../../support/content-records.js';
import { listedIds } from '../../support/record-lists.js';
import { startTestServerForThisTest, type TestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { profileLine } from '../../support/workspace-records.js';

// Today is 2026-11-22 (UTC); every answer below is in the current 7-day period.
const NOW = new Date('2026-11-22T23:59:59.999Z');

const serverAtNow = () => startTestServerForThisTest({ now: () => NOW });

const deletion = (recordType: string, id: string) => ({ line: JSON.stringify({ type: 'delete', record_type: recordType, id }) });

/**
 * Two prompts and four answers naming two competitors and citing pages; `without` leaves answers
 * out, so a workspace that never had them can be compared with one where they were deleted.
 */
function visibilityData(without: number[] = []) {
  const rivals = [competitorLine({ name: 'Globex' }), competitorLine({ name: 'Initech' })];
  const prompts = [promptLine({ text: 'Which CRM is best?' }), promptLine({ text: 'Cheapest CRM?' })];
  const answers = [
    snapshotLine({ prompt_id: prompts[0]!.id, platform: 'chatgpt', collected_at: '2026-11-22T08:00:00Z', mentioned: true, cited: true, competitors: ['Initech', 'Globex'], citations: [{ url: 'https://acme.example/pricing', title: 'Pricing' }] }),
    snapshotLine({ prompt_id: prompts[0]!.id, platform: 'perplexity', collected_at: '2026-11-21T08:00:00Z', mentioned: true, cited: false, competitors: ['Globex'], citations: [{ url: 'https://reviews.example.org/crm', title: 'Reviews' }] }),
    snapshotLine({ prompt_id: prompts[1]!.id, platform: 'chatgpt', collected_at: '2026-11-20T08:00:00Z', mentioned: false, cited: false, competitors: [], citations: [] }),
    snapshotLine({ prompt_id: prompts[0]!.id, platform: 'claude', collected_at: '2026-11-19T08:00:00Z', mentioned: false, cited: true, competitors: ['Globex'], citations: [{ url: 'https://acme.example/pricing', title: 'Pricing' }] }),
  ];
  const lines = [profileLine({ domains: ['acme.example'] }), ...rivals, ...prompts, ...answers.filter((_, i) => !without.includes(i))];
  return { rivals, prompts, answers, lines };
}

/** Every workspace-level analytics read and export, as a client would fetch them. */
async function analytics(server: TestServer, ws: TestWorkspace) {
  const bodies = [];
  for (const path of ['/api/v1/visibility/rates', '/api/v1/visibility/competitors', '/api/v1/visibility/cited-pages']) {
    const res = await getWith(server, ws, path, { range: '7d' });
    expect(res.status, res.text).toBe(200);
    bodies.push(res.body);
  }
  const daily = await getWith(server, ws, '/api/v1/visibility/exports/daily-rates.ndjson', { range: '7d' });
  expect(daily.status).toBe(200);
  // Competitor ids differ between workspaces; everything else must not.
  return JSON.parse(JSON.stringify([...bodies, daily.text]).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')) as unknown;
}

describe('deleted records through HTTP', () => {
  it('when answers are deleted, they leave every read and export, and the analytics equal a workspace that never had them', async () => {
    const server = await serverAtNow();
    const ws = await createTestWorkspace(server.store);
    const never = await createTestWorkspace(server.store);
    const data = visibilityData();
    await importRecords(server.store, ws, data.lines);
    await importRecords(server.store, never, visibilityData([0, 3]).lines);
    const promptBefore = (await getWith(server, ws, `/api/v1/visibility/prompts/${data.prompts[0]!.id}`, { range: '7d' })).body as { data: { total_snapshots: number } };
    expect(promptBefore.data.total_snapshots).toBe(3);

    await importRecords(server.store, ws, [deletion('snapshot', data.answers[0]!.id), deletion('snapshot', data.answers[3]!.id)]);

    expect(await listedIds(server, ws, '/api/v1/visibility/answers', { range: '30d' })).toEqual([data.answers[1]!.id, data.answers[2]!.id]);
    expect((await getWith(server, ws, `/api/v1/visibility/answers/${data.answers[0]!.id}`)).status).toBe(404);
    const csv = await getWith(server, ws, '/api/v1/visibility/exports/answers', { range: '30d', format: 'csv' });
    expect(csv.text).toContain(data.answers[1]!.id);
    expect(csv.text).not.toContain(data.answers[0]!.id);
    expect(csv.text).not.toContain(data.answers[3]!.id);
    const prompt = (await getWith(server, ws, `/api/v1/visibility/prompts/${data.prompts[0]!.id}`, { range: '7d' })).body as {
      data: { total_snapshots: number; competitors: Array<{ competitor: string; mentions: number }>; overview: { prompt: { last_collected_at: string } } };
    };
    expect(prompt.data.total_snapshots).toBe(1);
    expect(prompt.data.competitors.map((c) => [c.competitor, c.mentions])).toEqual([['Globex', 1], ['Initech', 0]]);
    expect(prompt.data.overview.prompt.last_collected_at).toBe('2026-11-21T08:00:00.000Z');
    expect(await analytics(server, ws)).toEqual(await analytics(server, never));
  });

  it('when a prompt is deleted, it and its answers are gone from the prompt list, its analytics and the answers', async () => {
    const server = await serverAtNow();
    const ws = await createTestWorkspace(server.store);
    const data = visibilityData();
    await importRecords(server.store, ws, data.lines);

    await importRecords(server.store, ws, [deletion('prompt', data.prompts[0]!.id)]);

    expect(await listedIds(server, ws, '/api/v1/visibility/prompts')).toEqual([data.prompts[1]!.id]);
    expect((await getWith(server, ws, `/api/v1/visibility/prompts/${data.prompts[0]!.id}`)).status).toBe(404);
    expect(await listedIds(server, ws, '/api/v1/visibility/answers', { range: '30d' })).toEqual([data.answers[2]!.id]);
    const rates = (await getWith(server, ws, '/api/v1/visibility/rates', { range: '7d' })).body as { data: { mention_rate: { current: number | null } } };
    expect(rates.data.mention_rate.current).toBe(0);
  });

  it('when content records are deleted, they are gone from their lists and reads, and from the batch that listed them', async () => {
    const server = await serverAtNow();
    const ws = await createTestWorkspace(server.store);
    const topic = topicLine();
    const batch = researchBatchLine({ topic_id: topic.id, status: 'COMPLETED' });
    const ideas = [ideaLine({ research_batch_id: batch.id }), ideaLine({ research_batch_id: batch.id, title: 'Kept' })];
    const articles = [articleLine(), articleLine()];
    await importRecords(server.store, ws, [topic, batch, ...ideas, ...articles]);

    await importRecords(server.store, ws, [deletion('idea', ideas[0]!.id), deletion('article', articles[0]!.id)]);

    expect(await listedIds(server, ws, '/api/v1/content/articles')).toEqual([articles[1]!.id]);
    expect((await getWith(server, ws, `/api/v1/content/articles/${articles[0]!.id}`)).status).toBe(404);
    expect(await listedIds(server, ws, '/api/v1/content/ideas')).toEqual([ideas[1]!.id]);
    expect((await getWith(server, ws, `/api/v1/content/ideas/${ideas[0]!.id}`)).status).toBe(404);
    const read = (await getWith(server, ws, `/api/v1/content/research-batches/${batch.id}`)).body as { data: { ideas_count: number; ideas: Array<{ id: string }> } };
    expect([read.data.ideas_count, read.data.ideas.map((i) => i.id)]).toEqual([1, [ideas[1]!.id]]);
  });
});
