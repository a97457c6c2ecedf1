import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpointNames, parseArguments, planEndpoint } from '../../scripts/new-endpoint.mjs';

// The scaffold's plan over this repository, written nowhere: its names, the files it writes and
// changes, and its refusals. test/scaffold/new-endpoint.process.test.ts runs it in a copy, end to end.
const root = fileURLToPath(new URL('../..', import.meta.url));
const PLATFORM = '/api/v1/visibility/prompts/{prompt}/platforms/{platform}';

describe('npm run new:endpoint (scripts/new-endpoint.mjs)', () => {
  it('names the operation, its schema and its files by one rule', () => {
    expect(endpointNames(PLATFORM)).toEqual({
      area: 'visibility', operationId: 'getPromptPlatform', name: 'PromptPlatform', key: 'promptPlatform', file: 'prompt-platform',
      constant: 'PROMPT_PLATFORM', pathFile: 'api_v1_visibility_prompts_{prompt}_platforms_{platform}.yaml', pathParameters: ['prompt', 'platform'],
    });
    expect(endpointNames('/api/v1/content/research-batches/{research_batch}/ideas').operationId).toBe('getResearchBatchIdeas');
    expect(endpointNames('/api/v1/iq/summary', 'getIqSummary').file).toBe('iq-summary');
  });

  it('writes the contract, the store on both databases, the handler, the test and the scenario, and wires each in', () => {
    const plan = planEndpoint(root, parseArguments(['GET', PLATFORM, '--scope', 'visibility:read', '--like', 'getPromptAnalytics']));
    expect(Object.keys(plan.files).sort()).toEqual([
      'openapi/components/schemas/PromptPlatform.yaml',
      'openapi/components/schemas/PromptPlatformEnvelope.yaml',
      'openapi/paths/api_v1_visibility_prompts_{prompt}_platforms_{platform}.yaml',
      'src/handlers/prompt-platform.ts',
      'src/store/interfaces/prompt-platform.ts',
      'src/store/postgres/prompt-platform.ts',
      'src/store/prompt-platform-statements.ts',
      'src/store/sqlite/prompt-platform.ts',
      'test/contract/scenarios/prompt-platform.ts',
      'test/integration/visibility/prompt-platform.test.ts',
    ]);
    expect(Object.keys(plan.changed).sort()).toEqual([
      'examples/hey-api/client.ts', 'examples/openapi-fetch/client.ts', 'openapi/openapi.yaml', 'src/handlers/index.ts',
      'src/store/interfaces/store.ts', 'src/store/postgres/postgres-store.ts', 'src/store/sqlite/sqlite-store.ts', 'test/contract/scenarios/index.ts',
    ]);
    // The path file holds only what is particular to the operation, with the like's query parameters.
    const pathFile = plan.files['openapi/paths/api_v1_visibility_prompts_{prompt}_platforms_{platform}.yaml']!;
    expect(pathFile).not.toMatch(/^head:|ETag|'401'/m);
    expect(pathFile).toContain('$ref: ../components/parameters/Range.yaml');
    expect(plan.changed['src/handlers/index.ts']).toMatch(/import \{ getPromptPlatform \} from '\.\/prompt-platform\.js';[\s\S]*\n {2}getPromptPlatform,\n\};\n$/);
    // Each store registers the area as it registers the others.
    expect(plan.changed['src/store/sqlite/sqlite-store.ts']).toMatch(/\n {4}promptPlatform: .*createPromptPlatformStore\(db\)\)?,\n/);
    expect(plan.changed['src/store/postgres/postgres-store.ts']).toMatch(/\n {4}promptPlatform: .*createPostgresPromptPlatformStore\(pool\)\)?,\n/);
    expect(plan.changed['openapi/openapi.yaml']).toContain(`  ${PLATFORM}:\n    $ref: paths/api_v1_visibility_prompts_{prompt}_platforms_{platform}.yaml\n`);
    // What is left to the developer fails, never passes: the statement selects nothing, the test throws.
    expect(plan.files['src/store/prompt-platform-statements.ts']).toContain("'SELECT 1 AS unwritten WHERE @workspace_id IS NULL'");
    expect(plan.files['test/integration/visibility/prompt-platform.test.ts']).toContain('throw new Error(`getPromptPlatform: write the records it reads');
  });

  it('refuses a path or an operationId the contract has, and arguments it cannot use', () => {
    const plan = (argv: string[]) => () => planEndpoint(root, parseArguments(argv));
    expect(plan(['GET', '/api/v1/visibility/prompts/{prompt}', '--scope', 'visibility:read']))
      .toThrow('/api/v1/visibility/prompts/{prompt} is already in the contract (openapi/openapi.yaml); nothing written');
    expect(plan(['GET', '/api/v1/visibility/elsewhere', '--scope', 'visibility:read', '--operation-id', 'listPrompts']))
      .toThrow('listPrompts is already the operationId of GET /api/v1/visibility/prompts; pick another with --operation-id; nothing written');
    expect(plan(['POST', '/api/v1/visibility/x', '--scope', 'visibility:read'])).toThrow('only GET operations are scaffolded (got POST)');
    expect(plan(['GET', '/api/v2/x', '--scope', 'visibility:read'])).toThrow('/api/v2/x: a path under /api/v1');
    expect(plan(['GET', '/api/v1/visibility/x'])).toThrow('--scope is required');
    expect(plan(['GET', '/api/v1/visibility/x', '--scope', 'visibility:read', '--like', 'getNothing'])).toThrow('--like getNothing: no such GET operation');
  });
});
