import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { everyReadRoute, routesNotCompared, routesOf, type ReadDocument } from './every-read-routes.js';

// The both-stores test's plan, over variants of the contract made in memory: a route it could not
// fill in fails naming the route, the operation and the file to edit, instead of being left out.
const withGet = (path: string, operationId: string, parameters: unknown[]): ReadDocument => {
  const document = loadOpenApiDocument() as ReadDocument;
  document.paths[path] = { get: { operationId, parameters, security: [{ BearerAuth: ['visibility:read'] }, { ApiKeyHeader: ['visibility:read'] }] } };
  return document;
};

describe('the routes of the both-stores test, from the contract', () => {
  it('fails naming a route whose path parameter has no list and no enum to take values from', () => {
    const document = withGet('/api/v1/visibility/prompts/{prompt}/sources/{source}', 'getPromptSource', [
      { $ref: '#/components/parameters/PromptId' },
      { name: 'source', in: 'path', required: true, description: 'A source.', schema: { type: 'string', format: 'uuid' } },
    ]);
    const { routes, gaps } = everyReadRoute(document);
    expect(gaps).toEqual([
      'GET /api/v1/visibility/prompts/{prompt}/sources/{source} (getPromptSource): no values for {source}: no list GET at '
      + '/api/v1/visibility/prompts/{prompt}/sources and no enum; name a source in test/stores/every-read-routes.ts '
      + '(or the file that compares it in COMPARED_ELSEWHERE)',
    ]);
    expect(routes.map((r) => r.path)).not.toContain('/api/v1/visibility/prompts/{prompt}/sources/{source}');
  });

  it('takes a path parameter\'s values from its list, or from its enum', () => {
    const document = withGet('/api/v1/visibility/prompts/{prompt}/unlisted-example/{platform}', 'getPromptUnlistedExample', [
      { $ref: '#/components/parameters/PromptId' },
      { name: 'platform', in: 'path', required: true, description: 'A platform.', schema: { $ref: '#/components/schemas/Platform' } },
    ]);
    const { routes, gaps } = everyReadRoute(document);
    expect(gaps).toEqual([]);
    const route = routes.find((r) => r.operationId === 'getPromptUnlistedExample')!;
    expect(route.pathValues).toEqual([
      { name: 'prompt', from: 'list', list: '/api/v1/visibility/prompts' },
      { name: 'platform', from: 'enum', values: expect.arrayContaining(['chatgpt', 'perplexity']) },
    ]);
    // After the list that gives its ids.
    expect(routes.findIndex((r) => r.operationId === 'listPrompts')).toBeLessThan(routes.indexOf(route));
  });

  it('narrows to the operations named and the lists their ids come from, in the contract\'s order', () => {
    const { routes } = everyReadRoute(withGet('/api/v1/visibility/prompts/{prompt}/unlisted-example/{platform}', 'getPromptUnlistedExample', [
      { $ref: '#/components/parameters/PromptId' },
      { name: 'platform', in: 'path', required: true, description: 'A platform.', schema: { $ref: '#/components/schemas/Platform' } },
    ]));
    expect(routesOf(routes, ['getPromptUnlistedExample']).map((r) => r.operationId)).toEqual(['listPrompts', 'getPromptUnlistedExample']);
    expect(() => routesOf(routes, ['getPromptUnlistedExamples'])).toThrow('no GET of the contract has the operationId getPromptUnlistedExamples');
  });

  it('names each route a run never compared', () => {
    const { routes } = everyReadRoute(loadOpenApiDocument() as ReadDocument);
    const asked = new Set(routes.map((r) => r.path).filter((p) => p !== '/api/v1/content/ideas/{idea}'));
    expect(routesNotCompared(routes, asked)).toEqual([
      'GET /api/v1/content/ideas/{idea} (getIdea): never compared: the data of test/stores/every-read-same-json.test.ts has nothing to read there',
    ]);
  });
});
