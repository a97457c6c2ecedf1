import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { promptLine } from '../../support/import-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';

// The validator records what it needs of an operation on the operation's first request and reuses
// it for the next ones (src/http/validation/request-validator.ts); each request must still be validated and
// answered with its own path parameters.
const server = useTestServer();

describe('requests of one operation, one after the other', () => {
  it('each is answered for its own path parameters, and a bad one in between is still refused', async () => {
    const ws = await createTestWorkspace(server.store);
    const [first, second] = [promptLine(), promptLine()];
    await importRecords(server.store, ws, [first, second]);
    const idOf = async (id: string) => {
      const res = await getWith(server, ws, `/api/v1/visibility/prompts/${id}`);
      expect(res.status).toBe(200);
      return (res.body as { data: { overview: { prompt: { id: string } } } }).data.overview.prompt.id;
    };

    expect(await idOf(first.id)).toBe(first.id);
    expect(await idOf(second.id)).toBe(second.id);
    const bad = await getWith(server, ws, '/api/v1/visibility/prompts/not-a-uuid');
    expect([bad.status, (bad.body as { data: unknown }).data]).toEqual([422, { errors: [{ in: 'path', name: 'prompt', message: 'must match format "uuid"' }] }]);
    expect(await idOf(second.id.toUpperCase())).toBe(second.id);
    expect(await idOf(first.id)).toBe(first.id);
  });

  it('query values are validated and defaulted per request, not carried over from the request before', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine();
    await importRecords(server.store, ws, [prompt]);
    const period = async (query: Record<string, string>) => {
      const res = await getWith(server, ws, `/api/v1/visibility/prompts/${prompt.id}`, query);
      const body = res.body as { messages: string; data: { overview?: { range: string } } | null };
      return [res.status, body.data?.overview?.range ?? body.messages];
    };
    expect(await period({ range: '7d' })).toEqual([200, '7d']);
    expect(await period({})).toEqual([200, '30d']);
    expect(await period({ range: '14d' })).toEqual([422, 'Invalid parameters: query.range must be equal to one of the allowed values: 7d, 30d, 90d.']);
    expect(await period({ range: '90d' })).toEqual([200, '90d']);
  });
});
