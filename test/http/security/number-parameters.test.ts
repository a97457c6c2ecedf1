import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';

// Every refused and accepted spelling is checked on every number parameter of the contract without a
// server, in test/unit/http/validation/query-numbers.test.ts; here, that the check is mounted on each read that
// takes one, for a value the validator's own coercion lets through and one it refuses itself.
const ALPHA_READS = ['/api/v1/visibility/prompts', '/api/v1/visibility/prompts/{prompt}', '/api/v1/visibility/rates'];

const server = useTestServer();
let workspace: TestWorkspace;
beforeAll(async () => {
  workspace = await createTestWorkspace(server.store);
});

const call = (path: string, name: string, value: string) =>
  send(server.url, { path: path.replace(/\{[^}]+\}/g, () => randomUUID()), query: { [name]: value } }, workspace.key);

describe('number query parameters', () => {
  it('when a value is not a finite number within the documented range, answers 422 naming the parameter', async () => {
    for (const path of ALPHA_READS) {
      for (const value of [' 0.5', '1e309']) {
        const res = await call(path, 'alpha', value);
        expect([res.status, res.body], `${path} alpha=${JSON.stringify(value)}: ${res.text.slice(0, 200)}`).toEqual([422, {
          code: 4220,
          messages: 'Invalid parameters: query.alpha must be a finite decimal number strictly between 0 and 1.',
          data: { errors: [{ in: 'query', name: 'alpha', message: 'must be a finite decimal number strictly between 0 and 1' }] },
        }]);
      }
    }
  });

  it('when the value is a decimal within the range, however written, is not refused', async () => {
    for (const path of ALPHA_READS) {
      const res = await call(path, 'alpha', '5e-2');
      // A random prompt id is a 404 after the parameters passed.
      expect([200, 404], `${path}: ${res.text.slice(0, 200)}`).toContain(res.status);
    }
  });
});
