import { describe, expect, it } from 'vitest';
import { matrixGaps, scenarioFileFor } from '../contract/framework/matrix-coverage.js';
import { Contract, type ContractOperation } from '../contract/framework/spec.js';
import { scenarioAreas } from '../contract/scenarios/index.js';

// The matrices' coverage check over the contract's operations with one added in memory: no server.
const operations = new Contract().operations;
const added = (op: Partial<ContractOperation> & Pick<ContractOperation, 'operationId' | 'path'>): ContractOperation[] => [
  ...operations,
  { method: 'get', statuses: [200, 404], pathMethods: ['GET', 'HEAD'], queryParameters: [], takesBody: false, ...op },
];

describe('what the matrices need of each read operation, from the contract', () => {
  it('names a read operation with no scenario, and the scenario file it goes in', () => {
    const gaps = matrixGaps(added({ operationId: 'getPromptUnlistedExample', path: '/api/v1/visibility/prompts/{prompt}/unlisted-example/{platform}' }), scenarioAreas);
    expect(gaps).toEqual([
      'getPromptUnlistedExample (GET /api/v1/visibility/prompts/{prompt}/unlisted-example/{platform}) in test/contract/scenarios/visibility-prompts.ts: no scenario; every matrix needs one',
    ]);
  });

  it('names what a scenario lacks for each matrix', () => {
    const areas = scenarioAreas.map((area) => area.file !== 'iq.ts' ? area : {
      ...area,
      scenarios: [...area.scenarios, { operationId: 'listWidgets', statuses: { 404: () => ({ path: '/api/v1/iq/widgets/x' }) } }],
    });
    const gaps = matrixGaps(added({ operationId: 'listWidgets', path: '/api/v1/iq/widgets/{widget}', queryParameters: ['limit', 'cursor'] }), areas);
    const where = 'listWidgets (GET /api/v1/iq/widgets/{widget}) in test/contract/scenarios/iq.ts';
    expect(gaps).toEqual([
      `${where}: no 2xx request in statuses; the generic cases of contract.test.ts need one`,
      `${where}: needs statuses[404] and crossTenant for the cross-tenant matrix`,
      `${where}: needs list for the paging matrix`,
    ]);
  });

  it('finds an operation\'s own scenario file', () => {
    const op = operations.find((o) => o.operationId === 'listAnswers')!;
    expect(scenarioFileFor(op, operations, scenarioAreas)).toBe('test/contract/scenarios/visibility.ts');
  });
});
