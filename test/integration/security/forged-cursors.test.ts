import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { startTestServerForThisTest } from '../../support/test-server.js';

// A cursor is opaque to clients, but its format is public (src/pagination/README.md). Cursors
// used to carry an unkeyed checksum of public values, so anyone holding a key could write one
// whose sort keys were fractional, huge or held NUL, and PostgreSQL answered 500 ("invalid input
// syntax for type bigint"). Now only the service can sign one, and even a cursor it signed is
// checked field by field before a query sees it: either way the answer is 422 naming `cursor`.

const SECRET = 'the-cursor-secret-these-tests-configure';
const DAY = 20_600; // 2026-05-26, a UTC day as days since 1970

type Filters = Array<[string, string]>;

const encoded = (position: unknown[]): string => Buffer.from(JSON.stringify(position)).toString('base64url');

/** A cursor with the checksum cursors carried before they were signed: SHA-256 of public values. */
function unkeyed(list: string, workspaceId: string, filters: Filters, position: unknown[]): string {
  const payload = encoded(position);
  const scope = JSON.stringify(['v1', list, workspaceId, filters]);
  return `${payload}.${createHash('sha256').update(scope).update('\n').update(payload).digest().subarray(0, 12).toString('base64url')}`;
}

/** A cursor signed with the server's own secret (known to this test only) around any position. */
function signed(list: string, workspaceId: string, filters: Filters, position: unknown[]): string {
  const payload = encoded(position);
  const scope = JSON.stringify(['v2', list, workspaceId, filters]);
  return `${payload}.${createHmac('sha256', SECRET).update(scope).update('\n').update(payload).digest('base64url')}`;
}

interface Forgery {
  what: string;
  path: string;
  query?: Record<string, string>;
  list: string;
  filters: Filters;
  position: unknown[];
}

const UUID = '3f2b8c1e-9d4a-4e6b-8f7c-1a2b3c4d5e6f';
const FORGERIES: Forgery[] = [
  { what: 'a fractional event number on the content feed', path: '/api/v1/content/events', list: 'events:content', filters: [], position: [1.5] },
  { what: 'an event number past 2^63 on the content-map feed', path: '/api/v1/content-map/events', list: 'events:content-map', filters: [], position: [1e20] },
  { what: 'a negative event number on the brand feed', path: '/api/v1/iq/events', list: 'events:iq', filters: [], position: [-1] },
  { what: 'a fractional collection time on answers', path: '/api/v1/visibility/answers', query: { range: '7d' }, list: 'listAnswers', filters: [['range', '7d']], position: [DAY, 1.5, UUID] },
  { what: 'a huge day on answers', path: '/api/v1/visibility/answers', query: { range: '7d' }, list: 'listAnswers', filters: [['range', '7d']], position: [1e300, 0, UUID] },
  { what: 'a fractional citation count on cited pages', path: '/api/v1/visibility/cited-pages', query: { range: '7d' }, list: 'listCitedPages', filters: [['range', '7d']], position: [DAY, 2.5, 'https://example.com/'] },
  { what: 'NUL in the id on articles', path: '/api/v1/content/articles', list: 'listArticles', filters: [], position: ['2026-01-01T00:00:00.000Z', `${UUID}\u0000`] },
  { what: 'NUL in the time on topics', path: '/api/v1/content-map/topics', list: 'listTopics', filters: [], position: ['2026-01-01T00:00:00.000Z\u0000', UUID] },
];

async function expectCursorRefused(baseUrl: string, key: string, forgery: Forgery, cursor: string): Promise<void> {
  const res = await send(baseUrl, { path: forgery.path, query: { ...forgery.query, cursor } }, key);
  expect([res.status, res.body], res.text.slice(0, 300)).toEqual([422, {
    code: 4220,
    messages: expect.stringContaining('query.cursor'),
    data: { errors: [{ in: 'query', name: 'cursor', message: expect.any(String) }] },
  }]);
}

describe('forged cursors', () => {
  it.each(FORGERIES)('with the old unkeyed checksum and $what: 422 naming cursor', async (forgery) => {
    const server = await startTestServerForThisTest({ cursorSecret: SECRET });
    const workspace = await createTestWorkspace(server.store);
    await expectCursorRefused(server.url, workspace.key, forgery, unkeyed(forgery.list, workspace.workspaceId, forgery.filters, forgery.position));
  });

  it.each(FORGERIES)('signed with the server secret but holding $what: 422 naming cursor', async (forgery) => {
    const server = await startTestServerForThisTest({ cursorSecret: SECRET });
    const workspace = await createTestWorkspace(server.store);
    await expectCursorRefused(server.url, workspace.key, forgery, signed(forgery.list, workspace.workspaceId, forgery.filters, forgery.position));
  });

  it('a well-formed position signed with the server secret is served (the forgeries above differ only in their values)', async () => {
    const server = await startTestServerForThisTest({ cursorSecret: SECRET });
    const workspace = await createTestWorkspace(server.store);
    const res = await send(server.url, { path: '/api/v1/content/events', query: { cursor: signed('events:content', workspace.workspaceId, [], [3]) } }, workspace.key);
    expect([res.status, (res.body as { data: unknown }).data]).toEqual([200, { items: [], next_cursor: expect.any(String), has_more: false }]);
  });
});
