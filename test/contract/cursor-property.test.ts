import { createHash, createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { successBuilder } from './framework/cases.js';
import { startHarness, type Harness } from './framework/harness.js';
import { Contract, type ContractOperation } from './framework/spec.js';
import { scenarios } from './scenarios/index.js';
import type { RequestSpec, ScenarioContext } from './scenarios/types.js';

// Every paged operation of the contract (every operation that takes a `cursor`, read from the
// contract, not listed here) is sent random and mutated cursors: bit flips, truncations, cursors
// spliced from two genuine ones, random JSON under a signature-shaped tail or under the unkeyed
// checksum cursors used to carry, and arbitrary text. Each answer must be 200 (the mutation left a
// cursor the service signed for this list) or 422 naming `cursor` and nothing else: never a 5xx.
// About 16 requests per operation keep the whole property to a few hundred per store.

const RUNS_PER_OPERATION = 14;
const contract = new Contract();
const paged = contract.operations.filter((op) => op.method.toUpperCase() === 'GET' && op.queryParameters.includes('cursor'));

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness(contract);
});
afterAll(async () => {
  await harness.close();
});

const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** A cursor whose tail looks like a signature (43 base64url characters) around any JSON. */
const signatureShaped = fc.tuple(fc.jsonValue(), fc.uint8Array({ minLength: 32, maxLength: 32 }))
  .map(([json, sig]) => `${base64url(JSON.stringify(json) ?? 'null')}.${Buffer.from(sig).toString('base64url')}`);

/** Random JSON under the unkeyed checksum cursors carried before they were signed (any list's scope). */
const unkeyedChecksum = (op: ContractOperation, workspaceId: string) => fc.jsonValue().map((json) => {
  const payload = base64url(JSON.stringify(json) ?? 'null');
  const scope = JSON.stringify(['v1', op.operationId, workspaceId, []]);
  return `${payload}.${createHash('sha256').update(scope).update('\n').update(payload).digest().subarray(0, 12).toString('base64url')}`;
});

/** Random JSON signed with a secret that is not the server's. */
const otherSecret = (op: ContractOperation, workspaceId: string) => fc.jsonValue().map((json) => {
  const payload = base64url(JSON.stringify(json) ?? 'null');
  const scope = JSON.stringify(['v2', op.operationId, workspaceId, []]);
  return `${payload}.${createHmac('sha256', randomBytes(32)).update(scope).update('\n').update(payload).digest('base64url')}`;
});

/** Mutations of a genuine cursor: one bit of one character flipped, cut short, or spliced with another. */
function mutationsOf(genuine: string, other: string) {
  return fc.oneof(
    fc.tuple(fc.nat({ max: genuine.length - 1 }), fc.integer({ min: 0, max: 6 }))
      .map(([at, bit]) => `${genuine.slice(0, at)}${String.fromCharCode(genuine.charCodeAt(at) ^ (1 << bit))}${genuine.slice(at + 1)}`),
    fc.nat({ max: genuine.length - 1 }).map((n) => genuine.slice(0, n)),
    fc.constant(`${genuine.split('.')[0]}.${other.split('.')[1] ?? ''}`),
    fc.constant(`${other.split('.')[0]}.${genuine.split('.')[1] ?? ''}`),
    fc.constant(genuine),
  );
}

interface Target {
  op: ContractOperation;
  ctx: ScenarioContext;
  request: RequestSpec;
}

async function nextCursor(target: Target): Promise<string | null> {
  const res = await harness.call(target.op, { ...target.request, query: { ...target.request.query, limit: 1 } }, target.ctx);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return (res.body as { data: { next_cursor: string | null } }).data.next_cursor;
}

describe('cursors: random and mutated cursors never get a 5xx on any paged operation', () => {
  it('the contract has paged operations, each with a scenario that reaches it', () => {
    expect(paged.length).toBeGreaterThan(10);
    expect(paged.filter((op) => !scenarios.some((s) => s.operationId === op.operationId && successBuilder(s))).map((op) => op.operationId)).toEqual([]);
  });

  for (const op of paged) {
    it(`${op.operationId}: 200 or 422 naming cursor, whatever the cursor`, async () => {
      const scenario = scenarios.find((s) => s.operationId === op.operationId)!;
      const ctx = await harness.context();
      // Items enough for a genuine cursor where the scenario can make them; otherwise a genuine
      // cursor of another list stands in (its signature is the server's, for another scope).
      if (scenario.list) await scenario.list.seed(ctx, ctx.workspace, 3);
      const request = scenario.list?.request?.(ctx, ctx.workspace) ?? await successBuilder(scenario)!.build(ctx);
      const target: Target = { op, ctx, request: { ...request, method: 'GET' } };
      const feed = contract.operations.find((o) => o.operationId === 'listContentEvents')!;
      const foreign = (await nextCursor({ op: feed, ctx, request: { path: feed.path } }))!;
      const genuine = (await nextCursor(target)) ?? foreign;
      // The first check of a 200 and of a 422 compiles its schema, blocking this process (server
      // included) for seconds on a busy machine: both are compiled here, then the server's
      // keep-alive timer may close the idle connection before the next request rather than under
      // it (ECONNRESET).
      await harness.call(op, { ...target.request, query: { ...target.request.query, cursor: 'not-a-cursor' } }, ctx);
      await new Promise((resolve) => setTimeout(resolve, 100));

      const cursors = fc.oneof(
        { arbitrary: mutationsOf(genuine, foreign), weight: 4 },
        { arbitrary: signatureShaped, weight: 2 },
        { arbitrary: unkeyedChecksum(op, ctx.workspace.workspaceId), weight: 1 },
        { arbitrary: otherSecret(op, ctx.workspace.workspaceId), weight: 1 },
        { arbitrary: fc.string({ maxLength: 80, unit: 'binary' }), weight: 1 },
      );
      await fc.assert(fc.asyncProperty(cursors, async (cursor) => {
        const send = () => harness.call(op, { ...target.request, query: { ...target.request.query, limit: 2, cursor } }, ctx);
        // A keep-alive connection the server closed just as it was reused (this process, server
        // included, stalls while it compiles schemas) is sent again once: a request that really
        // broke its connection breaks the second one too.
        const res = await send().catch((err: unknown) => {
          if (err instanceof TypeError && err.message === 'fetch failed') return send();
          throw err;
        });
        const errors = (res.body as { data?: { errors?: Array<{ in: string; name: string }> } } | undefined)?.data?.errors;
        const answer = res.status === 200 ? 'ok' : res.status === 422 && errors?.length && errors.every((e) => e.in === 'query' && e.name === 'cursor') ? 'ok' : res.text.slice(0, 300);
        expect([res.status, answer], JSON.stringify(cursor)).toEqual([res.status === 200 ? 200 : 422, 'ok']);
      }), { numRuns: RUNS_PER_OPERATION, endOnFailure: true });
    });
  }
});
