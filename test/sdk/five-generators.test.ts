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
import { createSqliteTestStore, NO_RATE_LIMIT, startTestServer } from '../support/test-server.js';
import { cpuSeconds } from '../support/cpu-seconds.js';
import { exportedTypeNames, MADE_UP_NAME, openapiTypescriptSchemaNames } from './generated-type-names.js';

// What a client team does with each of the five popular generators: generate a client from the
// published contract (options, with their reasons, in test/sdk/generators/), compile it with a
// program (test/sdk/programs/) under `strict` without skipLibCheck, and run the program against a
// live server: every read operation through the client's generic call, a 404 and a 422 through
// the client's own error type, one export per format. The two generators of examples/
// (openapi-typescript + openapi-fetch, @hey-api/openapi-ts) are among the five: each generator
// runs once per run, and the examples compile and run against the same generated clients.
const root = fileURLToPath(new URL('../..', import.meta.url));
const SPEC = path.join(root, 'generated', 'openapi.json');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const GENERATORS = ['openapi-fetch', 'hey-api', 'orval', 'kubb', 'swagger-typescript-api'] as const;

type Json = Record<string, any>;
const doc = JSON.parse(readFileSync(SPEC, 'utf8')) as Json;
const reads = Object.entries(doc.paths as Json)
  .filter(([p, item]) => p.startsWith('/api/v1/') && item.get)
  .map(([p, item]) => ({ path: p, operationId: item.get.operationId as string, json: 'application/json' in (item.get.responses['200'].content ?? {}) }));
const schemaNames = Object.keys(doc.components?.schemas ?? {});
const parameterNames = Object.keys(doc.components?.parameters ?? {});
const allOperationIds = Object.values(doc.paths as Json).flatMap((item) =>
  Object.values(item as Json).flatMap((op) => (typeof op?.operationId === 'string' ? [op.operationId as string] : [])));

// Generators run from their own directory, not the repository's: openapi-typescript reads the
// nearest redocly.yaml, whose house rules are for the hand-written contract, not the bundle.
function run(cmd: string, args: string[], env: Record<string, string> = {}, cwd = root): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }));
  });
}

/** Runs one step of the file and logs its wall time and CPU, so the log shows where the file's time goes. */
async function timed<T>(step: string, work: () => T | Promise<T>): Promise<T> {
  const [start, cpu] = [performance.now(), cpuSeconds()];
  try {
    return await work();
  } finally {
    const end = cpuSeconds();
    console.log(`[five-generators] ${step}: ${((performance.now() - start) / 1000).toFixed(1)} s wall, CPU ${(end.here - cpu.here).toFixed(1)} s in the test, ${(end.children - cpu.children).toFixed(1)} s in child processes`);
  }
}

/** Where `any` hides in a type: itself, a union member, a type argument, or a property the generated code declares. */
function anyPaths(checker: ts.TypeChecker, type: ts.Type, work: string, at: string, seen = new Set<ts.Type>()): string[] {
  if (type.flags & ts.TypeFlags.Any) return [at];
  if (seen.has(type)) return [];
  seen.add(type);
  if (type.isUnionOrIntersection()) return type.types.flatMap((t) => anyPaths(checker, t, work, at, seen));
  if (!(type.flags & ts.TypeFlags.Object)) return [];
  const found = checker.getTypeArguments(type as ts.TypeReference).flatMap((t, i) => anyPaths(checker, t, work, `${at}<${i}>`, seen));
  for (const property of type.getProperties()) {
    // Library types (Response, Headers) are not the generator's: only what it wrote is walked.
    const declared = property.declarations?.[0]?.getSourceFile().fileName ?? '';
    if (!declared.startsWith(work) || declared.includes('node_modules')) continue;
    found.push(...anyPaths(checker, checker.getTypeOfSymbol(property), work, `${at}.${property.name}`, seen));
  }
  return found;
}

// The two type-checks below share their parsed (and bound) files, as TypeScript's own language
// service does across projects: the library declarations (TypeScript's lib, @types/node, undici)
// are most of both programs, and the compiler options that shape a parsed file (target, strict)
// are the same in both. A file is parsed again when its module format differs between the two.
const parsedFiles = new Map<string, ts.SourceFile>();

/** The diagnostics of one type-check of a tsconfig.json, and its program. */
function typeCheck(tsconfig: string, work: string): { program: ts.Program; options: ts.CompilerOptions; diagnostics: string[] } {
  const config = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const host = ts.createCompilerHost(config.options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    const { languageVersion, impliedNodeFormat } = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions, impliedNodeFormat: undefined };
    const key = `${fileName}|${languageVersion}|${impliedNodeFormat}`;
    let file = parsedFiles.get(key);
    if (!file) {
      file = parse(fileName, languageVersionOrOptions, onError, shouldCreate);
      if (file) parsedFiles.set(key, file);
    }
    return file;
  };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)].map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => work, getNewLine: () => '\n' }));
  return { program, options: config.options, diagnostics };
}

/** A store over the demo workspace of `npm start`, every area filled, at a size that imports in a moment. */
async function demoStore(): Promise<{ store: ReturnType<typeof createSqliteTestStore>['store']; key: string; cleanup: () => void }> {
  const { store, cleanup } = createSqliteTestStore();
  const demo = (await bootstrapDemo(store, async (s, workspaceId) => {
    await importLines(s, workspaceId, generateDemoData({ seed: 42, prompts: 4, days: 14, answersPerDay: 1, idNamespace: workspaceId }));
  }))!;
  return { store, key: demo.key, cleanup };
}

describe('five client generators on the published contract', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'five-generators-'));
  let generation: Array<{ code: number; output: string }>;
  let demo: Awaited<ReturnType<typeof demoStore>> | undefined;

  beforeAll(async () => {
    // Written in this process while the generators run in theirs.
    const demoReady = demoStore();
    cpSync(path.join(root, 'test', 'sdk', 'programs'), path.join(work, 'programs'), { recursive: true });
    cpSync(path.join(root, 'test', 'sdk', 'generators', 'orval-fetch.ts'), path.join(work, 'generators', 'orval-fetch.ts'));
    symlinkSync(path.join(root, 'node_modules'), path.join(work, 'node_modules'), 'dir');
    // The programs use top-level await: ES modules, as in a project of the client team's own.
    writeFileSync(path.join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    // The examples import their generated client from ./generated/, exactly as committed: here that
    // is the client the programs use.
    for (const name of ['openapi-fetch', 'hey-api']) {
      mkdirSync(path.join(work, 'examples', name), { recursive: true });
      cpSync(path.join(root, 'examples', name, 'client.ts'), path.join(work, 'examples', name, 'client.ts'));
      symlinkSync(path.join(work, name), path.join(work, 'examples', name, 'generated'), 'dir');
    }
    const env = (out: string) => ({ SDK_SPEC: SPEC, SDK_OUT: path.join(work, out), SDK_ORVAL_MUTATOR: path.join(work, 'generators', 'orval-fetch.ts') });
    // Once each per run, two at a time (each is one busy process for a few seconds).
    const jobs = [
      () => run(bin('openapi-typescript'), [SPEC, '-o', path.join(work, 'openapi-fetch', 'schema.d.ts')], {}, work),
      () => run(bin('openapi-ts'), ['-i', SPEC, '-o', path.join(work, 'hey-api'), '-c', '@hey-api/client-fetch']),
      () => run(bin('orval'), ['--config', path.join(root, 'test', 'sdk', 'generators', 'orval.config.ts')], env('orval')),
      // Kubb sends telemetry unless told not to: a test sends nothing out.
      () => run(bin('kubb'), ['generate', '--config', path.join(root, 'test', 'sdk', 'generators', 'kubb.config.ts')], { ...env('kubb'), KUBB_DISABLE_TELEMETRY: '1' }),
      // --enum-style=union: the contract's string enums as unions of their values ('7d' | '30d' | '90d'),
      // as every other generator writes them, instead of TypeScript enums a caller must import.
      () => run(bin('swagger-typescript-api'), ['generate', '-p', SPEC, '-o', path.join(work, 'swagger-typescript-api'), '-n', 'api.ts', '--enum-style=union']),
    ];
    generation = await timed('five generators, two at a time', async () => {
      const done: Array<{ code: number; output: string }> = [];
      // Kubb, the longest, first; the next starts as soon as one ends.
      const queue = [3, 4, 1, 0, 2];
      const worker = async (): Promise<void> => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) done[i] = await jobs[i]!();
      };
      await Promise.all([worker(), worker()]);
      return done;
    });

    // One probe file: the result type of every GET of every client, for the `any` check below.
    const gets = reads.map((r) => r.operationId);
    writeFileSync(path.join(work, 'programs', 'get-results.ts'), [
      "import type { paths } from '../openapi-fetch/schema.js';",
      "import type * as hey from '../hey-api/sdk.gen.js';",
      "import type * as orval from '../orval/api.js';",
      "import type * as kubb from '../kubb/index.ts';",
      "import type { Api } from '../swagger-typescript-api/api.js';",
      ...reads.map((r) => `export type openapi_fetch_${r.operationId} = paths['${r.path}']['get']['responses'][200]['content'];`),
      ...gets.map((id) => `export type hey_api_${id} = Awaited<ReturnType<typeof hey.${id}>>;`),
      ...gets.map((id) => `export type orval_${id} = Awaited<ReturnType<typeof orval.${id}>>;`),
      ...gets.map((id) => `export type kubb_${id} = Awaited<ReturnType<typeof kubb.${id}>>;`),
      ...gets.map((id) => `export type swagger_typescript_api_${id} = Awaited<ReturnType<Api<unknown>['api']['${id}']>>;`),
      'export type control_any = { data: { items: any[] } };',
    ].join('\n'));
    writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM', 'DOM.Iterable'], types: ['node'],
        strict: true, skipLibCheck: false, noEmit: true, allowImportingTsExtensions: true, resolveJsonModule: true,
      },
      include: ['programs', ...GENERATORS],
    }));
    // The examples as a client team compiles them (Node's own module resolution); the generated
    // files by the paths the examples import them through (./generated/), so each is compiled once.
    writeFileSync(path.join(work, 'examples', 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: ['node'],
        strict: true, noUncheckedIndexedAccess: true, skipLibCheck: true, noEmit: true,
      },
      include: ['openapi-fetch/client.ts', 'hey-api/client.ts', 'openapi-fetch/generated', 'hey-api/generated'],
    }));
    demo = await demoReady;
  }, 240_000);

  afterAll(() => {
    demo?.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  it('each generator makes a client from /openapi.json', () => {
    expect(generation.map((g) => g.code), generation.map((g) => g.output).join('\n')).toEqual([0, 0, 0, 0, 0]);
  });

  it('openapi-typescript and @hey-api/openapi-ts name every type after our schemas, parameters and operationIds, never a made-up name', () => {
    const fromOpenapiTypescript = openapiTypescriptSchemaNames(path.join(work, 'openapi-fetch', 'schema.d.ts'));
    expect(fromOpenapiTypescript.sort()).toEqual([...schemaNames].sort());

    const fromHeyApi = exportedTypeNames(path.join(work, 'hey-api', 'types.gen.ts'));
    const operationTypes = allOperationIds.flatMap((id) => {
      const base = id[0]!.toUpperCase() + id.slice(1);
      return ['Data', 'Error', 'Errors', 'Response', 'Responses'].map((suffix) => `${base}${suffix}`);
    });
    const expected = new Set([...schemaNames, ...parameterNames, ...operationTypes, 'ClientOptions']);
    expect(fromHeyApi.filter((name) => !expected.has(name))).toEqual([]);
    expect(schemaNames.filter((name) => !fromHeyApi.includes(name))).toEqual([]);
    expect([...schemaNames, ...parameterNames, ...fromHeyApi].filter((name) => MADE_UP_NAME.test(name))).toEqual([]);
  });

  // One type-check of everything (every client, every program, the probe): its diagnostics, then its types.
  let program: ts.Program;

  it('every client and its program compile with strict and without skipLibCheck, in one type-check', async () => {
    const checked = await timed('type-check of the clients and programs', () => typeCheck(path.join(work, 'tsconfig.json'), work));
    expect(checked.options.skipLibCheck).toBe(false);
    program = checked.program;
    expect(checked.diagnostics).toEqual([]);
  }, 240_000);

  // Which operations each example calls is checked from its source in the fast lane
  // (test/unit/sdk-example-coverage.test.ts); here they are compiled and run, and the server's log
  // says which answered.
  it('both examples of examples/ type-check against their generated clients', async () => {
    const checked = await timed('type-check of the examples', () => typeCheck(path.join(work, 'examples', 'tsconfig.json'), work));
    expect(checked.program.getRootFileNames()).toEqual(expect.arrayContaining(['openapi-fetch', 'hey-api'].map((name) => path.join(work, 'examples', name, 'client.ts'))));
    expect(checked.diagnostics).toEqual([]);
  }, 120_000);

  it('no GET of any client has `any` in its result type', async () => {
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(path.join(work, 'programs', 'get-results.ts'))!;
    const aliases = source.statements.filter(ts.isTypeAliasDeclaration);
    expect(aliases).toHaveLength(reads.length * GENERATORS.length + 1);
    // The control alias shows the walk finds an `any` nested in an array in a property.
    const withAny = await timed('walk for any', () => aliases.flatMap((alias) => anyPaths(checker, checker.getTypeAtLocation(alias.name), work, alias.name.text)));
    expect(withAny).toEqual(['control_any.data.items<0>']);
  });

  it('each program calls every read operation on a live server, reads a 404 and a 422 through its client, and downloads CSV and NDJSON', async () => {
    // Five programs at once, each calling every read: far more than the 120 requests a minute.
    const server = await startTestServer({ store: demo!.store, rateLimit: NO_RATE_LIMIT });
    try {
      const env = { WORKSPACE_API_URL: server.url, WORKSPACE_API_KEY: demo!.key };
      // One process runs the five programs at once (programs/run-programs.ts); each prints one report line.
      const { code, output } = await timed('five programs', () => run(process.execPath, ['--import', 'tsx', path.join(work, 'programs', 'run-programs.ts'), ...GENERATORS], env));
      // Every client's report, in the test log.
      console.log(`--- the five programs (exit ${code})\n${output}`);
      expect(code, output).toBe(0);
      const reports = output.split('\n').filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { generator: string; called: string[]; errors: string[]; downloads: string[] });
      expect(reports.map((r) => r.generator).sort()).toEqual(['@hey-api/openapi-ts', 'kubb', 'openapi-fetch', 'orval', 'swagger-typescript-api']);
      const jsonReads = reads.filter((r) => r.json).map((r) => `${r.operationId} 200`).sort();
      for (const report of reports) {
        expect([...report.called].sort(), report.generator).toEqual(jsonReads);
        expect(report.errors, report.generator).toEqual([
          expect.stringMatching(/^getPromptAnalytics 404 code 4040$/),
          expect.stringMatching(/^listPrompts 422 code 4220 query\.limit$/),
        ]);
        expect(report.downloads, report.generator).toEqual([
          expect.stringMatching(/^exportAnswers .*?([2-9]|\d{2,}) lines$/),
          expect.stringMatching(/^exportAnswersNdjson .*?[1-9]\d* lines$/),
        ]);
      }
    } finally {
      await server.close();
    }
  }, 240_000);

  it('both examples run against the live server over demo data, and every read operation answers 2xx', async () => {
    // A server of their own over the same data: its log holds only the examples' requests, at the default limits.
    const server = await startTestServer({ store: demo!.store });
    try {
      const env = { WORKSPACE_API_URL: server.url, WORKSPACE_API_KEY: demo!.key };
      const results = await timed('two examples', () => Promise.all(['openapi-fetch', 'hey-api'].map((name) => run(process.execPath, ['--import', 'tsx', path.join(work, 'examples', name, 'client.ts')], env))));
      expect(results.map((r) => r.code), results.map((r) => r.output).join('\n')).toEqual([0, 0]);

      // Which operations the server answered, with which status, from its own request log.
      const templates = reads
        .map((o) => ({ ...o, pattern: new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`), params: (o.path.match(/\{/g) ?? []).length }))
        .sort((a, b) => a.params - b.params);
      const answered = new Map<string, number[]>();
      for (const line of server.logLines()) {
        const entry = JSON.parse(line) as { req?: { method: string; url: string }; res?: { statusCode: number } };
        if (!entry.req || !entry.res || entry.req.method !== 'GET') continue;
        const op = templates.find((t) => t.pattern.test(entry.req!.url.split('?')[0]!));
        if (op) answered.set(op.operationId, [...(answered.get(op.operationId) ?? []), entry.res.statusCode]);
      }
      expect(reads.map((r) => r.operationId).sort().filter((id) => !answered.has(id))
        .map((id) => `${id}: not asked by a run of examples/openapi-fetch/client.ts or examples/hey-api/client.ts`)).toEqual([]);
      const failed = [...answered].filter(([, statuses]) => statuses.some((s) => s < 200 || s > 299));
      expect(failed).toEqual([]);
    } finally {
      await server.close();
    }
    // Two example programs started with tsx, each calling every read operation: about 40 s with
    // the rest of the suite beside it.
  }, 120_000);
});
