// walks-operations: asks every operation of the contract (test/scaffold/ runs it after adding an endpoint)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers } from '../../src/http/read-handlers.js';
import { adminHandlers } from '../../src/http/admin-handlers.js';
import { contractOperationIds } from '../../src/http/dispatch.js';
import type { AdminHandlers, ReadHandlers } from '../../src/operations/handler-types.js';
import { casesFor, uncoveredStatuses } from './framework/cases.js';
import { startHarness, type Harness } from './framework/harness.js';
import { Contract } from './framework/spec.js';
import { expectedScopes, exemptFromSubscription, hasPathParameters, isReadApi } from './framework/scopes.js';
import { scenarioFileFor } from './framework/matrix-coverage.js';
import { scenarioAreas, scenarios } from './scenarios/index.js';
import { onPostgres } from '../support/store-kind.js';

const contract = new Contract();
const scenarioById = new Map(scenarios.map((s) => [s.operationId, s]));
// Every operation has a handler; HEAD has no operation (the GET's handler answers it, and each
// GET case is sent again as HEAD).
const served = contract.operations;
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness(contract);
});
afterAll(async () => {
  await harness.close();
});

describe('the bundled contract and the code', () => {
  it('registers exactly one handler per operationId, and no handler the contract does not declare', () => {
    expect([...Object.keys(handlers), ...Object.keys(adminHandlers)].sort()).toEqual(served.map((o) => o.operationId).sort());
    expect(contractOperationIds(contract.document)).toEqual(contract.operations.map((o) => o.operationId).sort());
  });

  it('splits the handlers as each operation\'s security does: member tokens for administration, API keys only for reads', () => {
    const takesMemberTokens = contract.operations
      .filter((op) => (contract.document.paths[op.path]![op.method]!.security ?? []).some((r) => 'MemberToken' in r))
      .map((op) => op.operationId);
    expect(Object.keys(adminHandlers).sort()).toEqual(takesMemberTokens.sort());
    // A handler map that leaves out one operation of its half must not compile.
    const { listApiKeys: _admin, ...adminWithoutOne } = adminHandlers;
    const { getMe: _read, ...readWithoutOne } = handlers;
    // @ts-expect-error listApiKeys takes a member token in the contract, so AdminHandlers needs it
    const incompleteAdmin: AdminHandlers = adminWithoutOne;
    // @ts-expect-error getMe takes only an API key in the contract, so ReadHandlers needs it
    const incompleteRead: ReadHandlers = readWithoutOne;
    expect([Object.hasOwn(incompleteAdmin, 'listApiKeys'), Object.hasOwn(incompleteRead, 'getMe')]).toEqual([false, false]);
  });

  it('declares in each read operation\'s security the scope of its prefix, and exempts /me and /workspace from the subscription', () => {
    const wrong: string[] = [];
    for (const op of contract.operations.filter((o) => isReadApi(o.path))) {
      const declared = contract.document.paths[op.path]![op.method]!;
      const scopes = expectedScopes(op.path);
      if (JSON.stringify(declared.security) !== JSON.stringify([{ BearerAuth: scopes }, { ApiKeyHeader: scopes }])) {
        wrong.push(`${op.operationId} declares ${JSON.stringify(declared.security)}`);
      }
      if ((declared['x-subscription-exempt'] === true) !== exemptFromSubscription(op.path)) wrong.push(`${op.operationId} x-subscription-exempt`);
    }
    expect(wrong).toEqual([]);
  });

  it('has exactly one scenario for every operation, and none for an operation it does not declare', () => {
    const declared = new Set(served.map((o) => o.operationId));
    const wrong = [
      ...served.filter((o) => !scenarioById.has(o.operationId))
        .map((o) => `${o.operationId} (${o.method.toUpperCase()} ${o.path}): no scenario; add one to ${scenarioFileFor(o, contract.operations, scenarioAreas)}`),
      ...scenarios.filter((s) => !declared.has(s.operationId)).map((s) => `${s.operationId}: a scenario for an operation the contract does not declare`),
      ...scenarios.filter((s, i) => scenarios.findIndex((t) => t.operationId === s.operationId) !== i).map((s) => `${s.operationId}: more than one scenario`),
    ];
    expect(wrong).toEqual([]);
  });

  it('lists no HEAD operation and says once, in x-head-for-every-get, that every GET answers HEAD', () => {
    expect(contract.operations.filter((o) => o.method === 'head' || o.operationId.startsWith('head')).map((o) => o.operationId)).toEqual([]);
    expect((contract.document as { 'x-head-for-every-get'?: { enabled?: unknown } })['x-head-for-every-get']?.enabled).toBe(true);
  });

  it('has a way to obtain every documented status of every operation', () => {
    const uncovered = served.flatMap((op) =>
      uncoveredStatuses(op, scenarioById.get(op.operationId)).map((status) => `${op.operationId} ${status}`));
    expect(uncovered).toEqual([]);
  });

  it('documents 415 on every operation that takes a body, and on no other', () => {
    const wrong = contract.operations.filter((op) => op.takesBody !== op.statuses.includes(415)).map((op) => op.operationId);
    expect(wrong).toEqual([]);
  });

  it('documents, for every read operation, the statuses its checks can answer', () => {
    const wrong: string[] = [];
    for (const op of contract.operations.filter((o) => isReadApi(o.path))) {
      const expected = new Set([200, 401, 405, 422, 429, 500, 503]);
      // A read answers 304 to a matching If-None-Match, except the usage, which counts the request itself.
      if (op.path !== '/api/v1/workspace/usage') expected.add(304);
      if (expectedScopes(op.path).length > 0) expected.add(403);
      if (!exemptFromSubscription(op.path)) expected.add(402);
      if (hasPathParameters(op.path)) expected.add(404);
      const documented = new Set(op.statuses);
      for (const s of expected) if (!documented.has(s)) wrong.push(`${op.operationId} does not document ${s}`);
      if (documented.has(403) && !expected.has(403)) wrong.push(`${op.operationId} documents 403 but needs no scope`);
      if (documented.has(402) && !expected.has(402)) wrong.push(`${op.operationId} documents 402 but is exempt`);
    }
    expect(wrong).toEqual([]);
  });
});

for (const op of served) {
  const scenario = scenarioById.get(op.operationId);
  if (!scenario) continue; // reported by the coverage test above
  describe(`${op.method === 'get' ? 'GET and HEAD' : op.method.toUpperCase()} ${op.path} (${op.operationId})`, () => {
    for (const c of casesFor(op, scenario)) it.skipIf((c.sqliteOnly === true || c.storeBlind === true) && onPostgres())(c.title, () => c.run(harness));
  });
}
