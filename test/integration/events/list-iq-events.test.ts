import { describe, expect, it } from 'vitest';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { changed, iqRecordLine } from '../../support/content-records.js';
import { expectInvalidQuery, expectScopeMissing, FEED_PATHS, readFeed } from '../../support/event-feeds.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { importRecords } from '../../support/visibility.js';

const PATH = FEED_PATHS.iq;

const server = useTestServer();

describe('GET /api/v1/iq/events', () => {
  it('lists brand-intelligence events, oldest first, each with the record as the API shows it', async () => {
    const ws = await createTestWorkspace(server.store);
    const persona = iqRecordLine('persona', { stage: 'PROCESSING' });
    const voice = iqRecordLine('voice', { stage: 'PROCESSING' });
    await importRecords(server.store, ws, [persona, voice], { events: false }); // a backfill: no event
    await importRecords(server.store, ws, [changed(voice, { stage: 'READY' })]);
    await importRecords(server.store, ws, [changed(persona, { stage: 'READY' })]);

    const reader = await createTestKey(server.store, ws, { scopes: ['iq:read'] });
    const page = await readFeed(server.url, reader.key, PATH, { event_type: 'iq.status_updated' });

    const get = async (path: string) => ((await send(server.url, { path }, ws.key)).body as { data: unknown }).data;
    expect(page.items.map((e) => [e.event, e.workspace_id, e.is_test, e.data])).toEqual([
      ['iq.status_updated', ws.workspaceId, false, await get(`/api/v1/iq/brand-voice/${voice.id}`)],
      ['iq.status_updated', ws.workspaceId, false, await get(`/api/v1/iq/personas/${persona.id}`)],
    ]);
  });

  it('needs iq:read', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestKey(server.store, ws, { scopes: ['workspace:read', 'content:read'] });
    expectScopeMissing(await send(server.url, { path: PATH }, other.key), 'iq:read');
  });

  it('when event_type is not one of the feed\'s, answers 422 naming it', async () => {
    const ws = await createTestWorkspace(server.store);
    expectInvalidQuery(await send(server.url, { path: PATH, query: { event_type: 'topic.status_updated' } }, ws.key), 'event_type');
  });
});
