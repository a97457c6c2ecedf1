import { describe, expect, it } from 'vitest';
import { contract } from './bundled-contract.js';

describe('what the checker reads from the bundled contract', () => {
  it('reads the order of checks from the info description', () => {
    expect(contract.orderOfChecks()).toEqual([401, 429, 403, 402, 422, 404]);
  });
});
