import type { OperationScenario } from '../scenarios/types.js';
import { successBuilder } from './cases.js';
import { hasPathParameters, isReadApi } from './scopes.js';
import type { ContractOperation } from './spec.js';

// What the cross-tenant and paging matrices (matrices.test.ts) and the generic cases
// (contract.test.ts) need of each read operation's scenario, checked over the contract's list of
// operations alone: an operation without it fails here, named with the scenario file to edit,
// instead of leaving a matrix or a case unseen.

/** The scenarios of one area file under test/contract/scenarios/. */
export interface ScenarioArea {
  file: string;
  scenarios: OperationScenario[];
}

const SCENARIOS = 'test/contract/scenarios';

function sharedSegments(a: string, b: string): number {
  const [x, y] = [a.split('/'), b.split('/')];
  let n = 0;
  while (n < x.length && x[n] === y[n]) n += 1;
  return n;
}

/**
 * The scenario file an operation belongs in: its own when it has one, else the area whose
 * operations share the longest leading path with it (`/api/v1/visibility/prompts/{prompt}/x` goes
 * beside `/api/v1/visibility/prompts/{prompt}`).
 */
export function scenarioFileFor(op: ContractOperation, operations: ContractOperation[], areas: ScenarioArea[]): string {
  const pathOf = new Map(operations.map((o) => [o.operationId, o.path]));
  let best = { file: 'index.ts', shared: 0 };
  for (const area of areas) {
    for (const scenario of area.scenarios) {
      if (scenario.operationId === op.operationId) return `${SCENARIOS}/${area.file}`;
      const path = pathOf.get(scenario.operationId);
      const shared = path === undefined ? 0 : sharedSegments(path, op.path);
      if (shared > best.shared) best = { file: area.file, shared };
    }
  }
  return `${SCENARIOS}/${best.file}`;
}

/**
 * Every read operation (HEAD has none: it is answered by its GET and sent with the GET's cases) whose
 * scenario lacks what a matrix needs, one line per gap, naming the operation and the file to edit.
 */
export function matrixGaps(operations: ContractOperation[], areas: ScenarioArea[]): string[] {
  const byId = new Map(areas.flatMap((a) => a.scenarios.map((s) => [s.operationId, s] as const)));
  const gaps: string[] = [];
  for (const op of operations.filter((o) => isReadApi(o.path))) {
    const where = `${op.operationId} (${op.method.toUpperCase()} ${op.path}) in ${scenarioFileFor(op, operations, areas)}`;
    const scenario = byId.get(op.operationId);
    if (!scenario) {
      gaps.push(`${where}: no scenario; every matrix needs one`);
      continue;
    }
    if (!successBuilder(scenario)) gaps.push(`${where}: no 2xx request in statuses; the generic cases of contract.test.ts need one`);
    if (hasPathParameters(op.path) && (!scenario.crossTenant || scenario.statuses[404] === undefined)) {
      gaps.push(`${where}: needs statuses[404] and crossTenant for the cross-tenant matrix`);
    }
    if (op.queryParameters.includes('cursor') && !scenario.list) gaps.push(`${where}: needs list for the paging matrix`);
  }
  return gaps;
}
