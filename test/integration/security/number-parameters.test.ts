import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../contract/framework/spec.js';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

interface Parameter { $ref?: string; name?: string; in?: string; schema?: { $ref?: string; type?: unknown } }

const contract = new Contract();
/** Every read operation with a query parameter the contract types `number`, read from the bundled contract. */
const numberParameters = contract.operations.filter((op) => op.method.toUpperCase() === 'GET').flatMap((op) => {
  const item = contract.document.paths[op.path] as { parameters?: Parameter[] } & Record<string, { parameters?: Parameter[] }>;
  const parameters = [...(item.parameters ?? []), ...(item[op.method]?.parameters ?? [])].map((p) => contract.resolve(p));
  return parameters
    .filter((p) => p.in === 'query' && contract.resolve(p.schema ?? {}).type === 'number')
    .map((p) => ({ op, name: p.name! }));
});

// Numbers that are not finite, or outside "strictly between 0 and 1", however a client spells them.
const REFUSED = ['1e309', '-1e309', 'Infinity', '-Infinity', 'NaN', '0', '1', '-0.5', '1.5', '0x1', ' 0.5', '0.5 ', '1/2', '0,5'];
const ACCEPTED = ['0.05', '.05', '5e-2', '0.999', '1e-7'];

let server: TestServer;
let workspace: TestWorkspace;
beforeAll(async () => {
  server = await startTestServer();
  workspace = await createTestWorkspace(server.store);
});
afterAll(async () => {
  await server.close();
});

const call = (path: string, name: string, value: string) =>
  send(server.url, { path: path.replace(/\{[^}]+\}/g, () => randomUUID()), query: { [name]: value } }, workspace.key);

describe('number query parameters of every operation', () => {
  it('covers alpha on the three reads that take it', () => {
    expect(numberParameters.map(({ op, name }) => `${op.operationId} ${name}`).sort()).toEqual(
      expect.arrayContaining(['getPromptAnalytics alpha', 'getVisibilityRates alpha', 'listPrompts alpha']),
    );
  });

  it('when a value is not a finite number within the documented range, answers 422 naming the parameter', async () => {
    for (const { op, name } of numberParameters) {
      for (const value of REFUSED) {
        const res = await call(op.path, name, value);
        expect([res.status, res.body], `${op.operationId} ${name}=${JSON.stringify(value)}: ${res.text.slice(0, 200)}`).toEqual([422, {
          code: 4220,
          messages: expect.stringContaining(`query.${name}`),
          data: { errors: [{ in: 'query', name, message: expect.stringContaining('strictly between 0 and 1') }] },
        }]);
      }
    }
  });

  it('when the value is a decimal within the range, however written, is not refused', async () => {
    for (const { op, name } of numberParameters) {
      for (const value of ACCEPTED) {
        const res = await call(op.path, name, value);
        // A random prompt id is a 404 after the parameters passed.
        expect([200, 404], `${op.operationId} ${name}=${value}: ${res.text.slice(0, 200)}`).toContain(res.status);
      }
    }
  });
});
