// walks-operations: asks every operation of the contract (test/scaffold/ runs it after adding an endpoint)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { exampleCoverageGaps, type ExampleSource } from '../sdk/example-coverage.js';

// The client examples must call every read operation (test/sdk runs them against a live server);
// this checks their source against the contract without generating anything.
const examples: ExampleSource[] = (['openapi-fetch', 'hey-api'] as const).map((style) => {
  const file = `examples/${style}/client.ts`;
  return { file, style, source: readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8') };
});

describe('the client examples\' coverage of the read API', () => {
  it('each example calls every read operation of the contract, and nothing else', () => {
    expect(exampleCoverageGaps(loadOpenApiDocument(), examples)).toEqual([]);
  });

  it('names a GET the contract gains with no example call, and each file that lacks it', () => {
    const document = loadOpenApiDocument() as { paths: Record<string, unknown> };
    document.paths['/api/v1/visibility/prompts/{prompt}/unlisted-example/{platform}'] = { get: { operationId: 'getPromptUnlistedExample' } };
    expect(exampleCoverageGaps(document, examples)).toEqual([
      'getPromptUnlistedExample (GET /api/v1/visibility/prompts/{prompt}/unlisted-example/{platform}): no call in examples/openapi-fetch/client.ts',
      'getPromptUnlistedExample (GET /api/v1/visibility/prompts/{prompt}/unlisted-example/{platform}): no call in examples/hey-api/client.ts',
    ]);
  });

  it('names a call to an operation the contract does not have', () => {
    const document = loadOpenApiDocument() as { paths: Record<string, unknown> };
    delete document.paths['/api/v1/visibility/setup'];
    expect(exampleCoverageGaps(document, examples)).toEqual([
      'examples/openapi-fetch/client.ts calls GET /api/v1/visibility/setup, which is not a read operation of the contract',
      'examples/hey-api/client.ts calls getVisibilitySetup, which is not a read operation of the contract',
    ]);
  });
});
