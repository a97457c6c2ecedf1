#!/usr/bin/env node
// Writes a new read operation's files, wired together, leaving only what is particular to it:
//
//   npm run new:endpoint -- GET /api/v1/<area>/<path> --scope <scope> --like <operationId> [--param range]... [--store <area>] [--operation-id <id>]
//
// It copies only the query parameters named with --param; the statement takes what the service
// resolved (a `range` as its periods' instants, every default filled in from the contract); the
// read is one method more in the area's store (--store names it when no store area is named after
// the path's area), its statement in a file of its own. Each place left to the developer is
// marked by a test that fails until it is written (the statement, the records the test reads) or
// by a gate (the answer's fields: typecheck), never by a stub that passes. It refuses a path or an
// operationId the contract already has, and writes nothing then. docs/backend-developers.md,
// "Adding an endpoint, end to end", lists what it writes and which gate checks each file.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: npm run new:endpoint -- GET /api/v1/<path> --scope <scope> --like <operationId> [--param <query parameter>]... [--store <store area>] [--operation-id <id>]';

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
  const options = { param: [] };
  for (let i = 0; i < rest.length; i += 2) {
    const name = rest[i];
    if (!['--scope', '--like', '--operation-id', '--param', '--store'].includes(name) || rest[i + 1] === undefined) throw new Error(`${name}: unknown or without a value. ${USAGE}`);
    if (name === '--param') options.param.push(rest[i + 1]);
    else options[name.slice(2)] = rest[i + 1];
  }
  if (method !== 'GET') throw new Error(`only GET operations are scaffolded (got ${method ?? 'nothing'}). ${USAGE}`);
  if (!/^\/api\/v1(\/([a-z0-9-]+|\{[a-z_]+\}))+$/.test(apiPath ?? '')) throw new Error(`${apiPath ?? 'no path'}: a path under /api/v1 of lower-case segments and {parameters}. ${USAGE}`);
  if (!options.scope) throw new Error(`--scope is required. ${USAGE}`);
  return { apiPath, scope: options.scope, like: options.like, operationId: options['operation-id'], params: options.param, store: options.store };
}

/**
 * The names every file uses, by one rule: `get` + each literal segment after the area, singular
 * when a parameter follows it (`/visibility/prompts/{prompt}/platforms/{platform}` →
 * getPromptPlatform, schema PromptPlatform, files prompt-platform, its test get-prompt-platform.test.ts,
 * named after the operation id as every operation's test is).
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
    // The test is named after the operation id, as every operation's test is (test/README.md).
    testFile: kebab(id),
    constant: constant(name),
    pathFile: `api_v1_${segments.join('_')}.yaml`,
    pathParameters: [...apiPath.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]),
  };
}

function operationsOf(document) {
  return Object.entries(document.paths).flatMap(([p, item]) => Object.entries(item).map(([method, op]) => ({ path: p, method, op })));
}

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

/**
 * The query parameters the developer names with --param (a parameter's `name`, `range`, or its
 * component, `Range`), each with what the statement takes for it: the values the service resolves
 * (the periods' instants for `range`), nothing for a value only the answer uses (`alpha`, the
 * significance level), the validated value otherwise.
 */
function queryParameters(document, names) {
  const components = Object.entries(document.components.parameters ?? {}).filter(([, p]) => p.in === 'query');
  return names.map((wanted) => {
    const found = components.find(([key, p]) => p.name === wanted || key === wanted);
    if (!found) throw new Error(`--param ${wanted}: no query parameter of that name in openapi/components/parameters/ (there are ${[...new Set(components.map(([, p]) => p.name))].sort().join(', ')})`);
    const [component, parameter] = found;
    if (['limit', 'cursor'].includes(parameter.name)) throw new Error(`--param ${wanted}: the scaffold writes a read of one answer; a list (limit, cursor) is written by hand, see docs/backend-developers.md`);
    const statement = parameter.name === 'range'
      ? { spread: '...periodInstants(periodsFor(query.range, now))', fields: ['previous_from_ms', 'current_from_ms', 'until_ms'].map((f) => [f, 'number']) }
      : parameter.name === 'alpha'
        ? { fields: [] }
        : { fields: [[parameter.name, parameter.schema?.type === 'boolean' ? 'boolean | null' : parameter.schema?.type === 'integer' || parameter.schema?.type === 'number' ? 'number | null' : 'string | null']] };
    return { component, name: parameter.name, required: parameter.required === true, ...statement };
  });
}

/** The store areas of `Store` (src/store/interfaces/store.ts): key → its interface and file. */
function storeAreas(read) {
  const text = read('src/store/interfaces/store.ts');
  const files = new Map([...text.matchAll(/^import type \{ (\w+) \} from '\.\/([\w-]+)\.js';$/gm)].map((m) => [m[1], m[2]]));
  return new Map([...text.matchAll(/^ {2}(\w+): (\w+);$/gm)].filter((m) => files.has(m[2])).map((m) => [m[1], { type: m[2], file: files.get(m[2]) }]));
}

/** `text` with `lines` added after the first line matching `pattern` (a whole line). */
function insertAfterFirst(text, pattern, lines, where) {
  const match = pattern.exec(text);
  if (!match) throw new Error(`${where}: no line matches ${pattern} to add ${lines.trim().split('\n')[0]} after; add it by hand`);
  const end = match.index + match[0].length;
  return `${text.slice(0, end)}\n${lines}${text.slice(end)}`;
}

/** `text` with an import line added after its last import. */
function withImport(text, line) {
  return insertAfterLast(text, /^(import .*;|\} from '.*';)$/m, line);
}

/**
 * The name a dialect's store factory gives its connection (`db`, `pool`), which the added method
 * queries through; a file whose factory takes none the scaffold knows is refused, naming it.
 */
function connectionOf(text, factory, file) {
  const name = factory.exec(text)?.[1];
  if (name === undefined) throw new Error(`${file}: no store factory taking a connection (${factory.source}); add the read to it by hand`);
  return name;
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
  const areas = storeAreas(read);
  const storeKey = args.store ?? [...areas].find(([, a]) => a.file === n.area)?.[0];
  if (!storeKey || !areas.has(storeKey)) {
    throw new Error(`${args.store ? `--store ${args.store}: no such store area` : `no store area is named after ${n.area}`}; name the one the read belongs to with --store (${[...areas.keys()].join(', ')})`);
  }
  const area = areas.get(storeKey);
  // The statement in a file of its own, which imports nothing: the area's interface and both
  // dialects import its types and its text (a shared statements file of the area may import the
  // interface's row types, and the interface importing it back would be a cycle).
  const statements = { file: `src/store/${n.file}-statements.ts`, module: `${n.file}-statements` };
  const query = queryParameters(document, args.params ?? []);
  const sameArea = operations.find((o) => o.method === 'get' && o.path.startsWith(`/api/v1/${n.area}/`))?.op;
  const tag = (like?.op ?? sameArea)?.tags?.[0] ?? pascal(n.area);
  const exempt = like?.op['x-subscription-exempt'] === true;
  const words = n.name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  // The resource a 404 names: the first path parameter that is an id (not one of an enum's values), by the segment before it.
  const segments = args.apiPath.split('/');
  const idParameter = n.pathParameters.find((p) => !document.components.schemas?.[pascal(p)]?.enum);
  const resource = idParameter && singular(segments[segments.indexOf(`{${idParameter}}`) - 1]).replaceAll('-', ' ').replace(/^\w/, (c) => c.toUpperCase());

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
    ...(n.pathParameters.length + query.length > 0 ? ['  parameters:'] : []),
    ...n.pathParameters.map((p) => parameterYaml(document, p)),
    ...query.map((q) => `    - $ref: ../components/parameters/${q.component}.yaml`),
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
    ...(resource ? ["    '404':", '      $ref: ../components/responses/NotFound.yaml'] : []),
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

  // The store: one method more in the area's store (its interface and both dialects), its
  // statement written once for both databases in a file of its own.
  const fields = [['workspace_id', 'string'], ...n.pathParameters.map((p) => [p, 'string']), ...query.flatMap((q) => q.fields)];
  const statementBlock = [
    `/** What ${n.operationId} reads by: the caller's workspace, the path's parameters and the query's, as the service resolves them. */`,
    `export interface ${n.name}Params {`,
    ...fields.map(([f, type]) => `  ${f}: ${type};`),
    '}',
    '',
    `/** One row of ${n.operationId}'s statement. */`,
    `export interface ${n.name}Row {`,
    '  unwritten: number;',
    '}',
    '',
    `// ${n.operationId}'s statement, run word for word by both databases. It selects nothing until`,
    `// written: test/integration/${n.area}/${n.testFile}.test.ts fails until it is.`,
    `export const ${n.constant}_SQL = 'SELECT 1 AS unwritten WHERE @workspace_id IS NULL';`,
    '',
  ].join('\n');
  files[statements.file] = `// ${n.operationId}'s read in the ${storeKey} store (sqlite/${area.file}.ts, postgres/${area.file}.ts).\n\n${statementBlock}`;
  const interfaceFile = `src/store/interfaces/${area.file}.ts`;
  const method = [
    `  /** The rows of ${n.operationId}'s statement (${statements.file}) for these parameters. */`,
    `  ${n.key}(params: ${n.name}Params): Promise<${n.name}Row[]>;`,
  ].join('\n');
  const interfaceText = read(interfaceFile);
  const typesImport = `import type { ${n.name}Params, ${n.name}Row } from '../${statements.module}.js';`;
  const withTypes = /^import /m.test(interfaceText) ? withImport(interfaceText, typesImport) : `${typesImport}\n\n${interfaceText}`;
  changed[interfaceFile] = insertAfterFirst(withTypes, new RegExp(`^export interface ${area.type} \\{[^]*?(?=\\n\\}$)`, 'm'), method, interfaceFile);
  const sqliteFile = `src/store/sqlite/${area.file}.ts`;
  const sqlite = read(sqliteFile);
  const db = connectionOf(sqlite, /export function create(?:Sync)?\w*\((\w+): Db\b/, sqliteFile);
  changed[sqliteFile] = insertAfterFirst(
    withImport(sqlite, `import { ${n.constant}_SQL, type ${n.name}Params, type ${n.name}Row } from '../${statements.module}.js';`),
    /^.*(promised\(\{|^ {2}return \{)$/m,
    `    ${n.key}: (params: ${n.name}Params): ${n.name}Row[] => ${db}.prepare(${n.constant}_SQL).all(params) as ${n.name}Row[],`,
    sqliteFile,
  );
  const postgresFile = `src/store/postgres/${area.file}.ts`;
  const postgres = read(postgresFile);
  const pool = connectionOf(postgres, /export function createPostgres\w*\((\w+): (?:Queryable|PostgresPool)\b/, postgresFile);
  const rowsImported = /import \{[^}]*\brows\b[^}]*\} from '\.\/query\.js';/.test(postgres);
  changed[postgresFile] = insertAfterFirst(
    withImport(postgres, `import { ${n.constant}_SQL, type ${n.name}Params, type ${n.name}Row } from '../${statements.module}.js';${rowsImported ? '' : "\nimport { rows } from './query.js';"}`),
    /^ {2}return \{$/m,
    `    ${n.key}: (params: ${n.name}Params) => rows<${n.name}Row>(${pool}, ${n.constant}_SQL, params),`,
    postgresFile,
  );
  changed['test/contract/scenarios/index.ts'] = insertAfterLast(
    insertAfterLast(read('test/contract/scenarios/index.ts'), /^import .*;$/m, `import { ${n.key}Scenarios } from './${n.file}.js';`),
    /^ {2}\{ file: '[\w-]+\.ts', scenarios: \w+ \},$/m,
    `  { file: '${n.file}.ts', scenarios: ${n.key}Scenarios },`,
  );

  // The handler and its registration: the statement takes what the service resolved (the query's
  // defaults are filled in from the contract, `range` becomes the periods' instants), never a raw parameter.
  const ranged = query.some((q) => q.spread);
  const pathArgs = n.pathParameters.map((p) => `${p}: path.${p}`);
  const queryArgs = query.flatMap((q) => (q.spread ? [q.spread] : q.fields.map(([f]) => `${f}: query.${f}${q.required ? '' : ' ?? null'}`)));
  const usesQuery = queryArgs.length > 0;
  files[`src/handlers/${n.file}.ts`] = [
    ...(ranged ? ["import { periodInstants, periodsFor } from '../analytics/periods.js';"] : []),
    ...(resource ? ["import { ServiceError } from '../errors/service-error.js';"] : []),
    "import type { OperationHandler } from '../operations/handler-types.js';",
    "import { ok } from '../operations/success.js';",
    '',
    `export const ${n.operationId}: OperationHandler<'${n.operationId}'> = async ({ ${n.pathParameters.length > 0 ? 'path, ' : ''}${usesQuery ? 'query, ' : ''}caller, store${ranged ? ', now' : ''} }) => {`,
    `  const rows = await store.${storeKey}.${n.key}({`,
    ...['workspace_id: caller.principal.workspace_id', ...pathArgs, ...queryArgs].map((a) => `    ${a},`),
    '  });',
    ...(resource ? [`  if (rows.length === 0) throw ServiceError.notFound('${resource}');`] : []),
    `  // The answer made of the rows: the fields of openapi/components/schemas/${n.name}.yaml.`,
    `  return ok(${resource ? '{}' : '{ rows }'});`,
    '};',
    '',
  ].join('\n');
  const index = read('src/http/read-handlers.ts');
  changed['src/http/read-handlers.ts'] = insertAfterLast(index, /^import .*;$/m, `import { ${n.operationId} } from '../handlers/${n.file}.js';`)
    .replace(/\n};\s*$/, `\n  ${n.operationId},\n};\n`);

  // The test through HTTP (fast lane, and again on PostgreSQL), and the contract tests' scenario.
  files[`test/integration/${n.area}/${n.testFile}.test.ts`] = [
    "import { describe, expect, it } from 'vitest';",
    "import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';",
    "import { send } from '../../support/http.js';",
    "import { useTestServer } from '../../support/test-server.js';",
    '',
    'const server = useTestServer();',
    '',
    '/** The records the read needs, written into `ws`, the path that reads them and the data it must answer. */',
    'async function seeded(ws: TestWorkspace): Promise<{ path: string; query?: Record<string, string>; data: unknown }> {',
    `  throw new Error(\`${n.operationId}: write the records it reads into workspace \${ws.workspaceId} and the answer they give, in test/integration/${n.area}/${n.testFile}.test.ts\`);`,
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
    // The call's indent, and the guard the --like call is under when it has one (`if (topic) `: a
    // path value taken from a list may be missing), which holds the new call's path value too.
    const [, indent, guard = ''] = /\n( *)(if \([^)\n]*\) )?[^\n]*$/.exec(text.slice(0, at));
    changed[file] = `${text.slice(0, end)}${indent}${guard}${call}\n${text.slice(end)}`;
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
      + ` npx vitest run --project fast test/integration/${plan.names.area}/${plan.names.testFile}.test.ts`);
  } catch (error) {
    console.error(`new:endpoint: ${error.message}`);
    process.exitCode = 1;
  }
}
