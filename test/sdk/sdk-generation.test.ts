import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapDemo } from '../../src/demo/bootstrap.js';
import { generateDemoData } from '../../src/demo/generate-demo-data.js';
import { importLines } from '../../src/import/import-ndjson.js';
import { createSqliteTestStore, startTestServer } from '../support/test-server.js';
import { readOperations as readOperationsOf } from './example-coverage.js';

// What a client team does on its first day: generate a client from the published contract with
// either common generator, compile the example program (examples/) against it, and run it.
const root = fileURLToPath(new URL('../..', import.meta.url));
const SPEC = path.join(root, 'generated', 'openapi.json');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

type Json = Record<string, any>;
const doc = JSON.parse(readFileSync(SPEC, 'utf8')) as Json;

const readOperations = readOperationsOf(doc);
const readOperationIds = readOperations.map((o) => o.operationId).sort();
const schemaNames = Object.keys(doc.components?.schemas ?? {});
const parameterNames = Object.keys(doc.components?.parameters ?? {});
const allOperationIds = Object.values(doc.paths as Json).flatMap((item) =>
  Object.values(item as Json).flatMap((op) => (typeof op?.operationId === 'string' ? [op.operationId as string] : [])));

/** Names a generator makes up when a schema has none: the thing this check exists to prevent. */
const MADE_UP_NAME = /^(InlineResponse|InlineObject|AnonymousSchema|Schema\d)|[_-]?\d+$/;

// Generators run from their own directory, not the repository's: openapi-typescript reads the
// nearest redocly.yaml, whose house rules are for the hand-written contract, not the bundle.
function run(cmd: string, args: string[], env: Record<string, string> = {}, cwd = root): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }));
  });
}

/** Names of the type aliases and interfaces a generated file exports. */
function exportedTypeNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements
    .filter((s): s is ts.TypeAliasDeclaration | ts.InterfaceDeclaration =>
      (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s))
      && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
    .map((s) => s.name.text);
}

/** Property names of `components.schemas` in openapi-typescript's output. */
function openapiTypescriptSchemaNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const components = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'components');
  const schemas = components?.members.find((m) => m.name?.getText(source) === 'schemas');
  if (!schemas || !ts.isPropertySignature(schemas) || !schemas.type || !ts.isTypeLiteralNode(schemas.type)) return [];
  return schemas.type.members.map((m) => m.name!.getText(source).replace(/^["']|["']$/g, ''));
}

describe('SDK generation from the published contract', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'sdk-generation-'));
  const fetchDir = path.join(work, 'openapi-fetch');
  const heyDir = path.join(work, 'hey-api');
  let generation: Array<{ code: number; output: string }>;

  beforeAll(async () => {
    // The examples import their generated client from ./generated/, exactly as committed.
    for (const name of ['openapi-fetch', 'hey-api']) {
      mkdirSync(path.join(work, name, 'generated'), { recursive: true });
      cpSync(path.join(root, 'examples', name, 'client.ts'), path.join(work, name, 'client.ts'));
    }
    symlinkSync(path.join(root, 'node_modules'), path.join(work, 'node_modules'), 'dir');
    generation = await Promise.all([
      run(bin('openapi-typescript'), [SPEC, '-o', path.join(fetchDir, 'generated', 'schema.d.ts')], {}, work),
      run(bin('openapi-ts'), ['-i', SPEC, '-o', path.join(heyDir, 'generated'), '-c', '@hey-api/client-fetch']),
    ]);
  }, 60_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('generates a client with openapi-typescript and with @hey-api/openapi-ts', () => {
    expect(generation.map((g) => g.code), generation.map((g) => g.output).join('\n')).toEqual([0, 0]);
  });

  it('names every generated type after our schemas, parameters and operationIds, never a made-up name', () => {
    const fromOpenapiTypescript = openapiTypescriptSchemaNames(path.join(fetchDir, 'generated', 'schema.d.ts'));
    expect(fromOpenapiTypescript.sort()).toEqual([...schemaNames].sort());

    const fromHeyApi = exportedTypeNames(path.join(heyDir, 'generated', 'types.gen.ts'));
    const operationTypes = allOperationIds.flatMap((id) => {
      const base = id[0]!.toUpperCase() + id.slice(1);
      return ['Data', 'Error', 'Errors', 'Response', 'Responses'].map((suffix) => `${base}${suffix}`);
    });
    const expected = new Set([...schemaNames, ...parameterNames, ...operationTypes, 'ClientOptions']);
    expect(fromHeyApi.filter((name) => !expected.has(name))).toEqual([]);
    expect(schemaNames.filter((name) => !fromHeyApi.includes(name))).toEqual([]);
    expect([...schemaNames, ...parameterNames, ...fromHeyApi].filter((name) => MADE_UP_NAME.test(name))).toEqual([]);
  });

  // Which operations each example calls is checked from its source in the fast lane
  // (test/unit/sdk-example-coverage.test.ts); here they are run, and the server's log says which answered.

  it('both examples type-check against their generated clients', async () => {
    writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: ['node'],
        strict: true, noUncheckedIndexedAccess: true, skipLibCheck: true, noEmit: true,
      },
      include: ['openapi-fetch', 'hey-api'],
    }));
    const { code, output } = await run(bin('tsc'), ['-p', path.join(work, 'tsconfig.json')]);
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('both examples run against the live server over demo data, and every read operation answers 2xx', async () => {
    const { store, cleanup } = createSqliteTestStore();
    const server = await startTestServer({ store });
    try {
      // The demo workspace of `npm start`, every area filled, at a size that imports in a moment.
      const demo = (await bootstrapDemo(store, async (s, workspaceId) => {
        await importLines(s, workspaceId, generateDemoData({ seed: 42, prompts: 4, days: 14, answersPerDay: 1, idNamespace: workspaceId }));
      }))!;
      const env = { WORKSPACE_API_URL: server.url, WORKSPACE_API_KEY: demo.key };
      const results = await Promise.all([
        run(bin('tsx'), [path.join(fetchDir, 'client.ts')], env),
        run(bin('tsx'), [path.join(heyDir, 'client.ts')], env),
      ]);
      expect(results.map((r) => r.code), results.map((r) => r.output).join('\n')).toEqual([0, 0]);

      // Which operations the server answered, with which status, from its own request log.
      const templates = readOperations
        .map((o) => ({ ...o, pattern: new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`), params: (o.path.match(/\{/g) ?? []).length }))
        .sort((a, b) => a.params - b.params);
      const answered = new Map<string, number[]>();
      for (const line of server.logLines()) {
        const entry = JSON.parse(line) as { req?: { method: string; url: string }; res?: { statusCode: number } };
        if (!entry.req || !entry.res || entry.req.method !== 'GET') continue;
        const op = templates.find((t) => t.pattern.test(entry.req!.url.split('?')[0]!));
        if (op) answered.set(op.operationId, [...(answered.get(op.operationId) ?? []), entry.res.statusCode]);
      }
      expect(readOperationIds.filter((id) => !answered.has(id))
        .map((id) => `${id}: not asked by a run of examples/openapi-fetch/client.ts or examples/hey-api/client.ts`)).toEqual([]);
      const failed = [...answered].filter(([, statuses]) => statuses.some((s) => s < 200 || s > 299));
      expect(failed).toEqual([]);
    } finally {
      await server.close();
      cleanup();
    }
    // Two example programs started with tsx, each calling every read operation: about 40 s with
    // the rest of the suite beside it.
  }, 120_000);
});
