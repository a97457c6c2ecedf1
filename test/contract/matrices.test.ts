import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubscriptionStatus } from '../../src/store/interfaces/accounts.js';
import { createTestKey } from '../support/accounts.js';
import { namedCases, successBuilder } from './framework/cases.js';
import { startHarness, type Harness } from './framework/harness.js';
import { expectStablePaging } from './framework/paging.js';
import { Contract } from './framework/spec.js';
import { SCOPE_SETS, exemptFromSubscription, expectedScopes, hasPathParameters, isReadApi } from './framework/scopes.js';
import { matrixGaps } from './framework/matrix-coverage.js';
import { scenarioAreas, scenarios } from './scenarios/index.js';
import type { RequestSpec } from './scenarios/types.js';

// The generic matrices every read operation must pass, driven by the contract and the scenarios:
// no operation is named here, so a new operation joins each matrix by declaring its scenario, and
// one that lacks what a matrix needs fails the first test, named with its scenario file.
const contract = new Contract();
const reads = contract.operations
  .filter((op) => isReadApi(op.path))
  .flatMap((op) => {
    const scenario = scenarios.find((s) => s.operationId === op.operationId);
    const success = scenario && successBuilder(scenario);
    return scenario && success ? [{ op, scenario, success }] : [];
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

describe('scope matrix: every read operation with keys of each scope set', () => {
  for (const { op, success } of reads) {
    const required = expectedScopes(op.path);
    for (const { label, scopes } of SCOPE_SETS) {
      const missing = required.filter((s) => !scopes.includes(s));
      const outcome = missing.length === 0 ? `answers ${success.status}` : `answers 403 missing ${missing.join(', ')}`;
      it(`${op.operationId} with ${label}: ${outcome}`, async () => {
        const ctx = await harness.context();
        const spec = await success.build(ctx);
        const { key } = await createTestKey(ctx.store, ctx.workspace, { scopes });
        const res = await harness.call(op, { ...spec, key }, ctx);
        if (missing.length === 0) {
          expect(res.status, res.text.slice(0, 300)).toBe(success.status);
        } else {
          expect([res.status, res.body]).toEqual([403, { code: 4023, messages: expect.any(String), data: { required, missing } }]);
        }
      });
    }
  }
});

describe('subscription matrix: every read outside /me and /workspace answers 402 without an active plan', () => {
  const statuses: SubscriptionStatus[] = ['past_due', 'canceled', 'none'];
  for (const { op, success } of reads) {
    const exempt = exemptFromSubscription(op.path);
    for (const status of statuses) {
      it(`${op.operationId} when the workspace is ${status}: ${exempt ? `still answers ${success.status}` : 'answers 402 (1916)'}`, async () => {
        const ctx = await harness.context();
        const spec = await success.build(ctx);
        await ctx.store.accounts.setSubscription(ctx.workspace.workspaceId, status);
        const res = await harness.call(op, spec, ctx);
        if (exempt) expect(res.status, res.text.slice(0, 300)).toBe(success.status);
        else expect([res.status, res.body]).toEqual([402, { code: 1916, messages: expect.any(String), data: null }]);
      });
    }
  }
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
