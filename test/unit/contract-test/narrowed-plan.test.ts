import { describe, expect, it } from 'vitest';
import { namesAnswered } from '@workspace-read-api/contract-test/id-discovery.js';
import { plannedReads } from '@workspace-read-api/contract-test/narrowed-plan.js';
import { contract, op } from './bundled-contract.js';

const plan = (named: string[], also: { reads?: string[]; idNames?: string[] } = {}) =>
  [...plannedReads(contract, named, { reads: (also.reads ?? []).map(op), idNames: also.idNames ?? [] })].map((o) => o.operationId).sort();

// What a run narrowed by --operations reads, from the bundled contract alone. That such a run still
// reaches its operations and catches their faults is test/http/contract-test/broken-servers.test.ts's.
describe('the reads a run narrowed by --operations plans', () => {
  it('a read that needs no id: that read alone; a HEAD: with its GET', () => {
    expect(plan(['getMe'])).toEqual(['getMe']);
    expect(plan(['headVisibilityRates'])).toEqual(['getVisibilityRates', 'headVisibilityRates']);
  });

  it('a read by id: with the list whose link leads to it, and nothing of another area', () => {
    expect(plan(['getPromptAnalytics'])).toEqual(['getPromptAnalytics', 'listPrompts']);
    expect(plan(['headProduct'])).toEqual(['getProduct', 'headProduct', 'listProducts']);
  });

  it('a UUID filter: with the reads answering an id of its name (listAnswers\' prompt)', () => {
    expect(plan(['listAnswers'])).toEqual(expect.arrayContaining(['listAnswers', 'listPrompts']));
    expect(plan(['listAnswers']).filter((id) => !/Answer|Prompt/.test(id))).toEqual([]);
  });

  it('a write under a workspace: the reads naming the workspace that need no id themselves', () => {
    expect(plan(['createApiKey'])).toEqual(expect.arrayContaining(['getMe', 'getWorkspace']));
    expect(plan(['createApiKey']).every((id) => !contract.operation(id)!.path.includes('{'))).toBe(true);
    expect(plan([], { idNames: ['workspace_id'] })).toEqual(plan(['createApiKey']));
    expect(plan([], { reads: ['getMe'] })).toEqual(['getMe']);
  });

  it('files ids under the names the id pool uses: an item\'s id under its list, `x_id` under x', () => {
    expect([...namesAnswered(contract, op('listPrompts'))].sort()).toEqual(['category', 'prompt']);
    expect(namesAnswered(contract, op('getMe'))).toEqual(new Set(['key', 'workspace', 'user']));
  });
});
