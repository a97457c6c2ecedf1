// walks-operations: asks every operation of the contract (test/scaffold/ runs it after adding an endpoint)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedCases } from './framework/cases.js';
import { startHarness, type Harness } from './framework/harness.js';
import { expectStablePaging } from './framework/paging.js';
import { Contract } from './framework/spec.js';
import { hasPathParameters, isReadApi } from './framework/scopes.js';
import { matrixGaps } from './framework/matrix-coverage.js';
import { scenarioAreas, scenarios } from './scenarios/index.js';
import type { RequestSpec } from './scenarios/types.js';

// The matrices every read operation must pass, driven by the contract and the scenarios: no
// operation is named here, so a new operation joins each matrix by declaring its scenario, and one
// that lacks what a matrix needs fails the first test, named with its scenario file. They run on
// both stores: the cross-tenant cases check each read's workspace filter, the paging cases each
// list's order and cursor. Which scope and subscription each operation needs is checked for every
// operation without a server (test/unit/contract/operation-requirements.test.ts), how the guards answer
// on a few (test/integration/security/read-guards.test.ts); contract.test.ts sends each read's own
// 402 and 403.
const contract = new Contract();
const reads = contract.operations
  .filter((op) => isReadApi(op.path))
  .flatMap((op) => {
    const scenario = scenarios.find((s) => s.operationId === op.operationId);
    return scenario ? [{ op, scenario }] : [];
  });

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness(contract);
});
afterAll(async () => {
  await harness.close();
});

it('every read operation of the contract has what each matrix needs', () => {
  expect(matrixGaps(contract.operations, scenarioAreas)).toEqual([]);
});

describe('cross-tenant matrix: an id of another workspace answers exactly like an unknown one', () => {
  for (const { op, scenario } of reads.filter((r) => hasPathParameters(r.op.path))) {
    it(`${op.operationId}: 404 with the body of an unknown id`, async () => {
      expect(scenario.crossTenant, `${op.operationId} needs a crossTenant scenario`).toBeDefined();
      const unknown = namedCases(scenario.statuses[404])[0];
      expect(unknown, `${op.operationId} needs a 404 scenario`).toBeDefined();
      const ctx = await harness.context();
      const missingRes = await harness.call(op, await unknown![1](ctx), ctx);
      const foreignRes = await harness.call(op, await scenario.crossTenant!(ctx), ctx);
      expect(missingRes.status).toBe(404);
      expect([foreignRes.status, foreignRes.body]).toEqual([404, missingRes.body]);
    });
  }
});

describe('paging matrix: every list pages each item exactly once in a stable order', () => {
  for (const { op, scenario } of reads.filter((r) => r.scenario.list)) {
    it(`${op.operationId}: limit 1, 2, 3 walk the same items; tampered and foreign cursors are 422`, async () => {
      const list = scenario.list!;
      const ctx = await harness.context();
      const ids = await list.seed(ctx, ctx.workspace, 7);
      await list.seed(ctx, ctx.other, 2);
      const requestFor = (ws: typeof ctx.workspace): RequestSpec =>
        list.request ? list.request(ctx, ws) : { path: op.path, key: ws.key };
      await expectStablePaging({
        call: (spec) => harness.call(op, spec, ctx),
        request: requestFor(ctx.workspace),
        foreign: requestFor(ctx.other),
        ids,
        ...(list.itemId ? { itemId: list.itemId } : {}),
      });
    });
  }
});
