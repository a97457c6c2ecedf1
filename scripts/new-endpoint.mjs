#!/usr/bin/env node
// Writes a new read operation's files, wired together, leaving only what is particular to it:
//
//   npm run new:endpoint -- GET /api/v1/visibility/prompts/{prompt}/platforms/{platform} --scope visibility:read [--like getPromptAnalytics] [--operation-id getPromptPlatform]
//
// Each place left to the developer is marked by a test that fails until it is written (the
// answer's fields, the statement, the answer made of its rows, the records the test reads), never
// by a stub that passes. It refuses a path or an operationId the contract already has, and writes
// nothing then. docs/backend-developers.md, "Adding an endpoint, end to end", lists what it
// writes and which gate checks each file.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: npm run new:endpoint -- GET /api/v1/<path> --scope <scope> [--like <operationId>] [--operation-id <id>]';

const pascal = (words) => words.split(/[-_]/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
const camel = (name) => name[0].toLowerCase() + name.slice(1);
const kebab = (name) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
const constant = (name) => kebab(name).replaceAll('-', '_').toUpperCase();
const singular = (word) => {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ch|sh|ss|x)es$/.test(word)) return word.slice(0, -2);
  return word.replace(/s$/, '');
};

/** The arguments, or an Error naming what is wrong. */
export function parseArguments(argv) {
  const [method, apiPath, ...rest] = argv;
  const options = {};
  for (let i = 0; i < rest.length; i += 2) {
    const name = rest[i];
    if (!['--scope', '--like', '--operation-id'].includes(name) || rest[i + 1] === undefined) throw new Error(`${name}: unknown or without a value. ${USAGE}`);
    options[name.slice(2)] = rest[i + 1];
  }
  if (method !== 'GET') throw new Error(`only GET operations are scaffolded (got ${method ?? 'nothing'}). ${USAGE}`);
  if (!/^\/api\/v1(\/([a-z0-9-]+|\{[a-z_]+\}))+$/.test(apiPath ?? '')) throw new Error(`${apiPath ?? 'no path'}: a path under /api/v1 of lower-case segments and {parameters}. ${USAGE}`);
  if (!options.scope) throw new Error(`--scope is required. ${USAGE}`);
  return { apiPath, scope: options.scope, like: options.like, operationId: options['operation-id'] };
}

/**
 * The names every file uses, by one rule: `get` + each literal segment after the area, singular
 * when a parameter follows it (`/visibility/prompts/{prompt}/platforms/{platform}` →
 * getPromptPlatform, schema PromptPlatform, files prompt-platform).
 */
export function endpointNames(apiPath, operationId) {
  const segments = apiPath.split('/').filter(Boolean).slice(2);
  const [area, ...rest] = segments;
  const nouns = rest.flatMap((s, i) => (s.startsWith('{') ? [] : [rest[i + 1]?.startsWith('{') ? singular(s) : s]));
  const id = operationId ?? `get${pascal(nouns.length > 0 ? nouns.join('-') : area)}`;
  const name = id.replace(/^get(?=[A-Z])/, '');
  return {
    area,
    operationId: id,
    name: name[0].toUpperCase() + name.slice(1),
    key: camel(name),
    file: kebab(name),
    constant: constant(name),
    pathFile: `api_v1_${segments.join('_')}.yaml`,
    pathParameters: [...apiPath.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]),
  };
}

function operationsOf(document) {
  return Object.entries(document.paths).flatMap(([p, item]) => Object.entries(item).map(([method, op]) => ({ path: p, method, op })));
}

/** A bundled `#/components/<section>/<Name>` as the path file's relative reference. */
const fileRef = (ref) => `../components/${ref.split('/').slice(-2).join('/')}.yaml`;

function parameterYaml(document, name) {
  const parameters = Object.entries(document.components.parameters ?? {});
  const found = parameters.find(([, p]) => p.in === 'path' && p.name === name);
  if (found) return `    - $ref: ../components/parameters/${found[0]}.yaml`;
  const schema = pascal(name);
  const typed = document.components.schemas?.[schema] ? `$ref: ../components/schemas/${schema}.yaml` : 'type: string';
  return [
    `    - name: ${name}`,
    '      in: path',
    '      required: true',
    `      description: The ${name.replaceAll('_', ' ')} of the read${document.components.schemas?.[schema] ? ` (a \`${schema}\`)` : ''}.`,
    '      schema:',
    `        ${typed}`,
  ].join('\n');
}

/** The files to write and the files to change (their new text), or an Error when the operation exists. */
export function planEndpoint(root, args) {
  const read = (file) => readFileSync(path.join(root, file), 'utf8');
  const document = JSON.parse(read('generated/openapi.json'));
  const n = endpointNames(args.apiPath, args.operationId);
  const operations = operationsOf(document);
  if (document.paths[args.apiPath]) throw new Error(`${args.apiPath} is already in the contract (openapi/openapi.yaml); nothing written`);
  const clash = operations.find((o) => o.op.operationId === n.operationId);
  if (clash) throw new Error(`${n.operationId} is already the operationId of ${clash.method.toUpperCase()} ${clash.path}; pick another with --operation-id; nothing written`);
  const like = args.like ? operations.find((o) => o.op.operationId === args.like && o.method === 'get') : undefined;
  if (args.like && !like) throw new Error(`--like ${args.like}: no such GET operation in the contract`);
  const sameArea = operations.find((o) => o.method === 'get' && o.path.startsWith(`/api/v1/${n.area}/`))?.op;
  const tag = (like?.op ?? sameArea)?.tags?.[0] ?? pascal(n.area);
  const queryRefs = (like?.op.parameters ?? []).filter((p) => p.$ref && document.components.parameters[p.$ref.split('/').pop()].in === 'query').map((p) => p.$ref);
  const exempt = like?.op['x-subscription-exempt'] === true;
  const words = n.name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

  const files = {};
  const changed = {};

  // The contract: the path file (only what is particular to the operation; the rest is derived
  // when the contract is bundled), the answer's schema and its envelope.
  files[`openapi/paths/${n.pathFile}`] = [
    'get:',
    `  operationId: ${n.operationId}`,
    `  summary: Get the ${words}`,
    '  description: |',
    `    Returns the ${words} of \`${args.apiPath}\`. Requires \`${args.scope}\`.`,
    `  tags: [${tag}]`,
    ...(exempt ? ['  x-subscription-exempt: true'] : []),
    '  security:',
    `    - BearerAuth: [${args.scope}]`,
    `    - ApiKeyHeader: [${args.scope}]`,
    ...(n.pathParameters.length + queryRefs.length > 0 ? ['  parameters:'] : []),
    ...n.pathParameters.map((p) => parameterYaml(document, p)),
    ...queryRefs.map((ref) => `    - $ref: ${fileRef(ref)}`),
    '  responses:',
    "    '200':",
    `      description: The ${words}.`,
    '      content:',
    '        application/json:',
    '          schema:',
    `            $ref: ../components/schemas/${n.name}Envelope.yaml`,
    '          example:',
    '            code: 2000',
    '            messages: OK',
    '            data: {}',
    ...(n.pathParameters.length > 0 ? ["    '404':", '      $ref: ../components/responses/NotFound.yaml'] : []),
    '',
  ].join('\n');
  files[`openapi/components/schemas/${n.name}.yaml`] = [
    'type: object',
    `description: The ${words} (\`${n.operationId}\`). Its fields are the developer's to write, each with a description.`,
    'additionalProperties: false',
    'required: []',
    'properties: {}',
    '',
  ].join('\n');
  files[`openapi/components/schemas/${n.name}Envelope.yaml`] = [
    'type: object',
    `description: Success envelope of \`GET ${args.apiPath}\`.`,
    'additionalProperties: false',
    'required: [code, messages, data]',
    'properties:',
    '  code:',
    '    type: integer',
    '    const: 2000',
    '    description: Always `2000`, the generic read success code.',
    '  messages:',
    '    type: string',
    '    description: Human-readable status, `OK`.',
    '  data:',
    `    $ref: ${n.name}.yaml`,
    '',
  ].join('\n');
  const root_ = read('openapi/openapi.yaml');
  const afterPath = like ? like.path : Object.keys(document.paths).filter((p) => p.startsWith('/api/v1/')).at(-1);
  const anchor = `  ${afterPath}:\n    $ref: paths/${afterPath.split('/').filter(Boolean).join('_')}.yaml\n`;
  if (!root_.includes(anchor)) throw new Error(`openapi/openapi.yaml: no entry for ${afterPath} to add the new path after`);
  changed['openapi/openapi.yaml'] = root_.replace(anchor, `${anchor}  ${args.apiPath}:\n    $ref: paths/${n.pathFile}\n`);

  // The store: the statement (written once for both databases), the interface and both dialects.
  const params = ['workspace_id', ...n.pathParameters, ...queryRefs.map((r) => document.components.parameters[r.split('/').pop()].name)];
  files[`src/store/${n.file}-statements.ts`] = [
    `// The statement of ${n.operationId}, run word for word by both databases (sqlite/${n.file}.ts and`,
    `// postgres/${n.file}.ts); write a dialect's own only where they differ.`,
    '',
    `/** What ${n.operationId} reads by: the caller's workspace, the path's parameters and the query's. */`,
    `export interface ${n.name}Params {`,
    ...params.map((p) => `  ${p}: ${p === 'workspace_id' || n.pathParameters.includes(p) ? 'string' : 'string | number | null'};`),
    '}',
    '',
    `/** One row of the statement. */`,
    `export interface ${n.name}Row {`,
    '  unwritten: number;',
    '}',
    '',
    `// Selects nothing until written: test/integration/${n.area}/${n.file}.test.ts fails until it is.`,
    `export const ${n.constant}_SQL = 'SELECT 1 AS unwritten WHERE @workspace_id IS NULL';`,
    '',
  ].join('\n');
  files[`src/store/interfaces/${n.file}.ts`] = [
    `import type { ${n.name}Params, ${n.name}Row } from '../${n.file}-statements.js';`,
    '',
    `export type { ${n.name}Params, ${n.name}Row } from '../${n.file}-statements.js';`,
    '',
    `/** The read behind ${n.operationId}. */`,
    `export interface ${n.name}Store {`,
    `  /** The rows of ${n.operationId}'s statement for these parameters. */`,
    `  read(params: ${n.name}Params): Promise<${n.name}Row[]>;`,
    '}',
    '',
  ].join('\n');
  files[`src/store/sqlite/${n.file}.ts`] = [
    `import { ${n.constant}_SQL } from '../${n.file}-statements.js';`,
    `import type { ${n.name}Params, ${n.name}Row, ${n.name}Store } from '../interfaces/${n.file}.js';`,
    "import type { Db } from './database.js';",
    "import { promised } from './promised.js';",
    '',
    `/** ${n.operationId}'s read on SQLite. */`,
    `export function create${n.name}Store(db: Db): ${n.name}Store {`,
    `  const statement = db.prepare(${n.constant}_SQL);`,
    `  return promised({ read: (params: ${n.name}Params): ${n.name}Row[] => statement.all({ ...params }) as ${n.name}Row[] });`,
    '}',
    '',
  ].join('\n');
  files[`src/store/postgres/${n.file}.ts`] = [
    `import { ${n.constant}_SQL } from '../${n.file}-statements.js';`,
    `import type { ${n.name}Params, ${n.name}Row, ${n.name}Store } from '../interfaces/${n.file}.js';`,
    "import { rows, type Queryable } from './query.js';",
    '',
    `/** ${n.operationId}'s read on PostgreSQL. */`,
    `export function createPostgres${n.name}Store(db: Queryable): ${n.name}Store {`,
    `  return { read: (params: ${n.name}Params) => rows<${n.name}Row>(db, ${n.constant}_SQL, params) };`,
    '}',
    '',
  ].join('\n');
  // Each area registered beside the others: its import after the last import, its entry after the
  // last entry and written as that one is (whatever wraps the area's creation there).
  const registeredLike = (last) => last.replace(/^( {4})\w+:/, `$1${n.key}:`).replace(/create(Postgres)?\w+Store\(/, `create$1${n.name}Store(`);
  const registrations = [
    ['src/store/interfaces/store.ts', /^import type .*;$/m, `import type { ${n.name}Store } from './${n.file}.js';`, /^ {2}\w+: \w+Store;$/m, `  ${n.key}: ${n.name}Store;`],
    ['src/store/sqlite/sqlite-store.ts', /^import .*;$/m, `import { create${n.name}Store } from './${n.file}.js';`, /^ {4}\w+: .*create\w+Store\(db.*,$/m, registeredLike],
    ['src/store/postgres/postgres-store.ts', /^import .*;$/m, `import { createPostgres${n.name}Store } from './${n.file}.js';`, /^ {4}\w+: .*createPostgres\w+Store\(pool.*,$/m, registeredLike],
    ['test/contract/scenarios/index.ts', /^import .*;$/m, `import { ${n.key}Scenarios } from './${n.file}.js';`, /^ {2}\{ file: '[\w-]+\.ts', scenarios: \w+ \},$/m, `  { file: '${n.file}.ts', scenarios: ${n.key}Scenarios },`],
  ];
  for (const [file, importPattern, importLine, entryPattern, entry] of registrations) {
    changed[file] = insertAfterLast(insertAfterLast(read(file), importPattern, importLine), entryPattern, entry);
  }

  // The handler and its registration.
  const pathArgs = n.pathParameters.map((p) => `${p}: path.${p}`).join(', ');
  const queryArgs = params.slice(1 + n.pathParameters.length).map((p) => `${p}: query.${p} ?? null`).join(', ');
  files[`src/handlers/${n.file}.ts`] = [
    "import { ServiceError } from '../errors/service-error.js';",
    "import type { OperationHandler } from './handler-types.js';",
    "import { ok } from './success.js';",
    '',
    `export const ${n.operationId}: OperationHandler<'${n.operationId}'> = async ({ ${n.pathParameters.length > 0 ? 'path, ' : ''}${queryArgs ? 'query, ' : ''}caller, store }) => {`,
    `  const rows = await store.${n.key}.read({ workspace_id: caller.principal.workspace_id${pathArgs ? `, ${pathArgs}` : ''}${queryArgs ? `, ${queryArgs}` : ''} });`,
    `  if (rows.length === 0) throw ServiceError.notFound('${n.name}');`,
    `  // The answer made of the rows: the fields of openapi/components/schemas/${n.name}.yaml.`,
    '  return ok({});',
    '};',
    '',
  ].join('\n');
  const index = read('src/handlers/index.ts');
  changed['src/handlers/index.ts'] = insertAfterLast(index, /^import .*;$/m, `import { ${n.operationId} } from './${n.file}.js';`)
    .replace(/\n};\s*$/, `\n  ${n.operationId},\n};\n`);

  // The test through HTTP (fast lane, and again on PostgreSQL), and the contract tests' scenario.
  files[`test/integration/${n.area}/${n.file}.test.ts`] = [
    "import { afterAll, beforeAll, describe, expect, it } from 'vitest';",
    "import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';",
    "import { send } from '../../support/http.js';",
    "import { startTestServer, type TestServer } from '../../support/test-server.js';",
    '',
    'let server: TestServer;',
    'beforeAll(async () => {',
    '  server = await startTestServer();',
    '});',
    'afterAll(async () => {',
    '  await server.close();',
    '});',
    '',
    '/** The records the read needs, written into `ws`, the path that reads them and the data it must answer. */',
    'async function seeded(ws: TestWorkspace): Promise<{ path: string; query?: Record<string, string>; data: unknown }> {',
    `  throw new Error(\`${n.operationId}: write the records it reads into workspace \${ws.workspaceId} and the answer they give, in test/integration/${n.area}/${n.file}.test.ts\`);`,
    '}',
    '',
    `describe('GET ${args.apiPath}', () => {`,
    "  it('answers 200 with the data of the records it reads', async () => {",
    '    const ws = await createTestWorkspace(server.store);',
    '    const { path, query, data } = await seeded(ws);',
    '    const res = await send(server.url, { path, ...(query ? { query } : {}), key: ws.key });',
    "    expect([res.status, res.body]).toEqual([200, { code: 2000, messages: 'OK', data }]);",
    '  });',
    '});',
    '',
  ].join('\n');
  Object.assign(files, scenarioFile(root, n, args, like, document));

  // The client examples call every read operation.
  Object.assign(changed, exampleCalls(root, n, args, like));
  return { names: n, files, changed };
}

/** `text` with `line` (or the line made from the matched one) added after the last line matching `pattern`. */
function insertAfterLast(text, pattern, line) {
  const global = new RegExp(pattern.source, 'gm');
  const matches = [...text.matchAll(global)];
  if (matches.length === 0) throw new Error(`no line matches ${pattern} to add a line after`);
  const last = matches.at(-1);
  const end = last.index + last[0].length;
  return `${text.slice(0, end)}\n${typeof line === 'function' ? line(last[0]) : line}${text.slice(end)}`;
}

/** The value a path parameter takes in a scenario or an example: its enum's first value. */
function enumValue(document, apiPath, name) {
  const schema = document.components.schemas?.[pascal(name)];
  return schema?.enum?.[0];
}

/**
 * The scenario: when the new path extends the --like operation's path with parameters that have
 * an enum, the like's own requests (its data, its 404, its other workspace's id) with the rest of
 * the path added; otherwise builders that fail naming what to write.
 */
function scenarioFile(root, n, args, like, document) {
  const target = `test/contract/scenarios/${n.file}.ts`;
  const suffix = like && args.apiPath.startsWith(`${like.path}/`) ? args.apiPath.slice(like.path.length) : undefined;
  const filled = suffix?.replace(/\{([a-z_]+)\}/g, (_, name) => enumValue(document, args.apiPath, name) ?? `{${name}}`);
  const source = like && readdirSync(path.join(root, 'test/contract/scenarios'))
    .find((f) => readFileSync(path.join(root, 'test/contract/scenarios', f), 'utf8').includes(`operationId: '${like.op.operationId}'`));
  if (filled && !filled.includes('{') && source) {
    const exported = /export const (\w+): OperationScenario\[\]/.exec(readFileSync(path.join(root, 'test/contract/scenarios', source), 'utf8'))[1];
    return {
      [target]: [
        "import { namedCases, successBuilder } from '../framework/cases.js';",
        `import { ${exported} } from './${source.replace(/\.ts$/, '.js')}';`,
        "import type { OperationScenario, RequestBuilder } from './types.js';",
        '',
        `// ${n.operationId} reads below ${like.op.operationId}'s path: its requests are ${like.op.operationId}'s with '${filled}' added.`,
        `const like = ${exported}.find((s) => s.operationId === '${like.op.operationId}')!;`,
        `const below = (build: RequestBuilder | undefined): RequestBuilder => async (ctx) => {`,
        `  const spec = await build!(ctx);`,
        `  return { ...spec, path: \`\${spec.path}${filled}\` };`,
        '};',
        '',
        `export const ${n.key}Scenarios: OperationScenario[] = [`,
        '  {',
        `    operationId: '${n.operationId}',`,
        '    statuses: {',
        '      200: below(successBuilder(like)?.build),',
        '      404: below(namedCases(like.statuses[404])[0]?.[1]),',
        '    },',
        '    crossTenant: below(like.crossTenant),',
        '  },',
        '];',
        '',
      ].join('\n'),
    };
  }
  const unwritten = (what) => `() => { throw new Error('${n.operationId}: write ${what} in ${target}'); }`;
  return {
    [target]: [
      "import type { OperationScenario } from './types.js';",
      '',
      `export const ${n.key}Scenarios: OperationScenario[] = [`,
      '  {',
      `    operationId: '${n.operationId}',`,
      '    statuses: {',
      `      200: ${unwritten('the request that answers 200, with its data')},`,
      ...(n.pathParameters.length > 0 ? [`      404: ${unwritten('a request for an unknown id')},`] : []),
      '    },',
      ...(n.pathParameters.length > 0 ? [`    crossTenant: ${unwritten("a request for another workspace's id")},`] : []),
      '  },',
      '];',
      '',
    ].join('\n'),
  };
}

/** Both client examples, with a call of the new operation right after the --like operation's call. */
function exampleCalls(root, n, args, like) {
  if (!like) throw new Error('--like is needed to place the examples\' calls (examples/*/client.ts) beside a call of that operation');
  const document = JSON.parse(readFileSync(path.join(root, 'generated/openapi.json'), 'utf8'));
  const values = n.pathParameters.map((p) => {
    const value = enumValue(document, args.apiPath, p);
    return value === undefined ? p : `${p}: '${value}'`;
  });
  const pathObject = values.length > 0 ? `{ path: { ${values.join(', ')} } }` : '{}';
  const changed = {};
  const place = (file, call) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    const at = text.indexOf(`'${like.op.operationId}'`);
    if (at === -1) throw new Error(`${file}: no call of ${like.op.operationId} to add ${n.operationId}'s beside`);
    const end = text.indexOf(';\n', at) + 2;
    const indent = /\n( *)[^\n]*$/.exec(text.slice(0, at))[1];
    changed[file] = `${text.slice(0, end)}${indent}${call}\n${text.slice(end)}`;
  };
  place('examples/openapi-fetch/client.ts', `await read('${n.operationId}', client.GET('${args.apiPath}', { params: ${pathObject.replace(/^\{ /, '{ ').replace(/^\{\}$/, '{}')} }));`);
  place('examples/hey-api/client.ts', `await read('${n.operationId}', ${n.operationId}(${pathObject}));`);
  const hey = changed['examples/hey-api/client.ts'];
  changed['examples/hey-api/client.ts'] = hey.replace(/import \{([^}]*)\} from '\.\/generated\/sdk\.gen\.js';/, (all, names) => {
    const list = names.split(',').map((s) => s.trim()).filter(Boolean);
    list.push(n.operationId);
    list.sort();
    const lines = [];
    let line = ' ';
    for (const name of list) {
      if (line.length + name.length + 2 > 118) { lines.push(line); line = ' '; }
      line += ` ${name},`;
    }
    lines.push(line);
    return `import {\n${lines.join('\n')}\n} from './generated/sdk.gen.js';`;
  });
  return changed;
}

export function writeEndpoint(root, plan) {
  for (const [file, text] of Object.entries(plan.files)) {
    if (existsSync(path.join(root, file))) throw new Error(`${file} exists already; nothing written`);
  }
  for (const [file, text] of Object.entries({ ...plan.files, ...plan.changed })) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  try {
    const plan = planEndpoint(root, parseArguments(process.argv.slice(2)));
    writeEndpoint(root, plan);
    const all = [...Object.keys(plan.files).map((f) => `  wrote   ${f}`), ...Object.keys(plan.changed).map((f) => `  changed ${f}`)];
    console.log(`${plan.names.operationId}:\n${all.join('\n')}\nnext: npm run spec:lint && npm run codegen, then make the failing tests pass:`
      + ` npx vitest run --project fast test/integration/${plan.names.area}/${plan.names.file}.test.ts`);
  } catch (error) {
    console.error(`new:endpoint: ${error.message}`);
    process.exitCode = 1;
  }
}
