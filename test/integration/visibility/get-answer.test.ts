import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith } from '../../support/visibility.js';
import { expectedAnswers, seedAnswers } from './answers-fixture.js';

// Today is 2026-11-22 (UTC), as in list-answers.test.ts, whose answers these are.
const NOW = new Date('2026-11-22T12:00:00.000Z');

const server = useTestServer({ now: () => NOW });

describe('GET /api/v1/visibility/answers/{answer}', () => {
  it('when the answer is the workspace\'s, answers 200 with it', async () => {
    const ws = await createTestWorkspace(server.store);
    const s = await seedAnswers(server, ws);
    const res = await getWith(server, ws, `/api/v1/visibility/answers/${s.a1.id.toUpperCase()}`);
    expect([res.status, res.body]).toEqual([200, { code: 2000, messages: 'OK', data: expectedAnswers(s).a1 }]);
  });

  it('when the answer is older than any range, still answers it', async () => {
    const ws = await createTestWorkspace(server.store);
    const s = await seedAnswers(server, ws);
    expect((await getWith(server, ws, `/api/v1/visibility/answers/${s.a4.id}`)).body).toEqual({ code: 2000, messages: 'OK', data: expectedAnswers(s).a4 });
  });

  it('when the answer belongs to another workspace, answers exactly as for an unknown id', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const theirs = await seedAnswers(server, other);
    const foreign = await getWith(server, ws, `/api/v1/visibility/answers/${theirs.a1.id}`);
    const unknown = await getWith(server, ws, `/api/v1/visibility/answers/${randomUUID()}`);
    expect([foreign.status, foreign.text]).toEqual([404, unknown.text]);
    expect(unknown.body).toEqual({ code: 4040, messages: 'Answer not found.', data: null });
  });

  it('when the id is not a UUID, answers 422 (4220)', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await getWith(server, ws, '/api/v1/visibility/answers/not-a-uuid');
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
  });
});
