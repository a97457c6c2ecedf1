import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpointNames, parseArguments, planEndpoint } from '../../scripts/new-endpoint.mjs';

// The scaffold's plan over this repository, written nowhere: its names, the files it writes and
// changes, and its refusals. test/scaffold/new-endpoint.process.test.ts runs it in a copy, end to
// end. The path is the one reserved for the scaffold's tests (docs/backend-developers.md).
const root = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLE = '/api/v1/visibility/prompts/{prompt}/scaffold-example/{platform}';

describe('npm run new:endpoint (scripts/new-endpoint.mjs)', () => {
  it('names the operation, its schema and its files by one rule', () => {
    expect(endpointNames('/api/v1/visibility/prompts/{prompt}/platforms/{platform}')).toEqual({
      area: 'visibility', operationId: 'getPromptPlatform', name: 'PromptPlatform', key: 'promptPlatform', file: 'prompt-platform', testFile: 'get-prompt-platform',
      constant: 'PROMPT_PLATFORM', pathFile: 'api_v1_visibility_prompts_{prompt}_platforms_{platform}.yaml', pathParameters: ['prompt', 'platform'],
    });
    expect(endpointNames('/api/v1/content/research-batches/{research_batch}/ideas').operationId).toBe('getResearchBatchIdeas');
    expect(endpointNames('/api/v1/iq/summary', 'getIqSummary').file).toBe('iq-summary');
  });

  it('writes the contract, one statement, the handler, the test and the scenario, and adds the read to the area\'s store', () => {
    const plan = planEndpoint(root, parseArguments(['GET', EXAMPLE, '--scope', 'visibility:read', '--like', 'getPromptAnalytics', '--param', 'range', '--param', 'alpha', '--store', 'answers']));
    expect(Object.keys(plan.files).sort()).toEqual([
      'openapi/components/schemas/PromptScaffoldExample.yaml',
      'openapi/components/schemas/PromptScaffoldExampleEnvelope.yaml',
      'openapi/paths/api_v1_visibility_prompts_{prompt}_scaffold-example_{platform}.yaml',
      'src/handlers/prompt-scaffold-example.ts',
      'src/store/prompt-scaffold-example-statements.ts',
      'test/contract/scenarios/prompt-scaffold-example.ts',
      'test/integration/visibility/get-prompt-scaffold-example.test.ts',
    ]);
    // No store area of its own: one method more in the answers store, its interface and both dialects.
    expect(Object.keys(plan.changed).sort()).toEqual([
      'examples/hey-api/client.ts', 'examples/openapi-fetch/client.ts', 'openapi/openapi.yaml', 'src/http/read-handlers.ts',
      'src/store/interfaces/visibility-answers.ts', 'src/store/postgres/visibility-answers.ts', 'src/store/sqlite/visibility-answers.ts', 'test/contract/scenarios/index.ts',
    ]);
    expect(plan.changed['src/store/interfaces/visibility-answers.ts']).toMatch(/\n {2}promptScaffoldExample\(params: PromptScaffoldExampleParams\): Promise<PromptScaffoldExampleRow\[\]>;\n\}\n/);
    expect(plan.changed['src/store/sqlite/visibility-answers.ts']).toContain('promptScaffoldExample: (params: PromptScaffoldExampleParams): PromptScaffoldExampleRow[] => db.prepare(PROMPT_SCAFFOLD_EXAMPLE_SQL).all(params)');
    expect(plan.changed['src/store/postgres/visibility-answers.ts']).toContain('promptScaffoldExample: (params: PromptScaffoldExampleParams) => rows<PromptScaffoldExampleRow>(db, PROMPT_SCAFFOLD_EXAMPLE_SQL, params),');
    // The path file holds only what is particular to the operation, and only the parameters named.
    const pathFile = plan.files['openapi/paths/api_v1_visibility_prompts_{prompt}_scaffold-example_{platform}.yaml']!;
    expect(pathFile).not.toMatch(/^head:|ETag|'401'/m);
    expect(pathFile.match(/\$ref: \.\.\/components\/parameters\/\w+\.yaml/g)).toEqual([
      '$ref: ../components/parameters/PromptId.yaml', '$ref: ../components/parameters/Range.yaml', '$ref: ../components/parameters/Alpha.yaml',
    ]);
    // The statement takes the periods' instants, never `range` or `alpha`; the 404 names the resource.
    const statement = plan.files['src/store/prompt-scaffold-example-statements.ts']!;
    expect(statement).toMatch(/previous_from_ms: number;\n {2}current_from_ms: number;\n {2}until_ms: number;/);
    expect(statement).not.toMatch(/range|alpha/);
    const handler = plan.files['src/handlers/prompt-scaffold-example.ts']!;
    expect(handler).toContain('...periodInstants(periodsFor(query.range, now)),');
    expect(handler).toContain("throw ServiceError.notFound('Prompt');");
    expect(plan.changed['src/http/read-handlers.ts']).toMatch(/import \{ getPromptScaffoldExample \} from '\.\.\/handlers\/prompt-scaffold-example\.js';[\s\S]*\n {2}getPromptScaffoldExample,\n\};\n$/);
    expect(plan.changed['openapi/openapi.yaml']).toContain(`  ${EXAMPLE}:\n    $ref: paths/api_v1_visibility_prompts_{prompt}_scaffold-example_{platform}.yaml\n`);
    // What is left to the developer fails, never passes: the statement selects nothing, the test throws.
    expect(statement).toContain("'SELECT 1 AS unwritten WHERE @workspace_id IS NULL'");
    expect(plan.files['test/integration/visibility/get-prompt-scaffold-example.test.ts']).toContain('throw new Error(`getPromptScaffoldExample: write the records it reads');
  });

  it('queries through the connection each dialect\'s store factory names, whatever its name and type', () => {
    // The content map's factories take `db: Db` and `pool: PostgresPool` (the answers' `db: Db` and `db: Queryable`, above).
    const contentMap = planEndpoint(root, parseArguments(['GET', EXAMPLE, '--scope', 'contentmap:read', '--like', 'getTopic', '--store', 'contentMap']));
    expect(contentMap.changed['src/store/postgres/content-map.ts']).toContain('promptScaffoldExample: (params: PromptScaffoldExampleParams) => rows<PromptScaffoldExampleRow>(pool, PROMPT_SCAFFOLD_EXAMPLE_SQL, params),');
    expect(contentMap.changed['src/store/sqlite/content-map.ts']).toContain('promptScaffoldExample: (params: PromptScaffoldExampleParams): PromptScaffoldExampleRow[] => db.prepare(PROMPT_SCAFFOLD_EXAMPLE_SQL).all(params)');
  });

  it('places the examples\' calls beside the --like call, under its guard when it has one', () => {
    // getTopic's calls run only when the topic list named one (`if (topic) await read('getTopic', …)`).
    const guarded = planEndpoint(root, parseArguments(['GET', EXAMPLE, '--scope', 'contentmap:read', '--like', 'getTopic', '--store', 'contentMap']));
    expect(guarded.changed['examples/hey-api/client.ts']).toMatch(/\n {2}if \(topic\) await read\('getTopic', [^\n]*\n {2}if \(topic\) await read\('getPromptScaffoldExample', getPromptScaffoldExample\(/);
    expect(guarded.changed['examples/openapi-fetch/client.ts']).toMatch(/\n {2}if \(topic\) await read\('getTopic', [^\n]*\n {2}if \(topic\) await read\('getPromptScaffoldExample', client\.GET\(/);
    // getPromptAnalytics's call is under none (it sits in a block of its own): neither is the new one.
    const plain = planEndpoint(root, parseArguments(['GET', EXAMPLE, '--scope', 'visibility:read', '--like', 'getPromptAnalytics', '--store', 'answers']));
    expect(plain.changed['examples/hey-api/client.ts']).toMatch(/\n {4}await read\('getPromptScaffoldExample', getPromptScaffoldExample\(/);
  });

  it('copies no parameter it is not given, and asks for the store area when none is named after the path', () => {
    const plain = planEndpoint(root, parseArguments(['GET', EXAMPLE, '--scope', 'visibility:read', '--like', 'getPromptAnalytics', '--store', 'answers']));
    expect(plain.files['openapi/paths/api_v1_visibility_prompts_{prompt}_scaffold-example_{platform}.yaml']).not.toMatch(/Range|Alpha/);
    expect(() => planEndpoint(root, parseArguments(['GET', EXAMPLE, '--scope', 'visibility:read', '--like', 'getPromptAnalytics'])))
      .toThrow(/no store area is named after visibility; name the one the read belongs to with --store \(accounts, .*answers/);
    expect(() => planEndpoint(root, parseArguments(['GET', EXAMPLE, '--scope', 'visibility:read', '--like', 'getPromptAnalytics', '--store', 'answers', '--param', 'limit'])))
      .toThrow('--param limit: the scaffold writes a read of one answer; a list (limit, cursor) is written by hand');
    expect(() => planEndpoint(root, parseArguments(['GET', EXAMPLE, '--scope', 'visibility:read', '--like', 'getPromptAnalytics', '--store', 'answers', '--param', 'nope'])))
      .toThrow(/--param nope: no query parameter of that name in openapi\/components\/parameters\/ \(there are [^)]*\balpha, [^)]*\brange, /);
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
