import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cpuSeconds } from '../support/cpu-seconds.js';

// A backend developer adds GET /api/v1/visibility/prompts/{prompt}/platforms/{platform} (the
// mention and citation rate blocks of one prompt on one platform; not shipped, since the
// analytics' platforms[] carry the same data) in a copy of this repository, as
// docs/backend-developers.md says: the scaffold, whose test fails; the developer's part (the files
// under test/scaffold/prompt-platform/, a fixed implementation); then only the gates and the tests
// this endpoint needs, on SQLite and on PostgreSQL. The hand-written part is counted as the diff
// against a commit of the scaffold's output (generated/ aside: codegen writes it).
const root = fileURLToPath(new URL('../..', import.meta.url));
const FILLED = path.join(root, 'test/scaffold/prompt-platform');
const PLATFORM = '/api/v1/visibility/prompts/{prompt}/platforms/{platform}';
const NEW_TEST = 'test/integration/visibility/prompt-platform.test.ts';
const GIT = ['-c', 'user.name=scaffold', '-c', 'user.email=scaffold@example.test', '-c', 'commit.gpgsign=false'];

let work: string;

// The commands run as a developer runs them: without this run's vitest settings. The test runs in
// the copy create their databases in this run's PostgreSQL cluster (test/setup/postgres.global.ts)
// rather than starting one each.
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'WSAPI_TEST_STORE' && name !== 'NODE_ENV')),
  ...(inject('postgresAdminUrl') === '' ? {} : { WSAPI_TEST_POSTGRES_ADMIN_URL: inject('postgresAdminUrl') }),
};
// The tools the package installs, started without npx (which costs half a second of CPU a call).
const VITEST = 'node_modules/.bin/vitest';

function run(cmd: string, args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const started = Date.now();
  const cpu = cpuSeconds().children;
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: work, env: { ...env, ...extraEnv }, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      // Where the file's time goes, one line a step, in the test log.
      console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s wall ${(cpuSeconds().children - cpu).toFixed(1).padStart(6)} s CPU  ${path.basename(cmd)} ${args.slice(0, 3).join(' ')}`);
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

async function ok(cmd: string, args: string[]): Promise<string> {
  const { code, output } = await run(cmd, args);
  expect(code, `${cmd} ${args.join(' ')}\n${output.slice(-3000)}`).toBe(0);
  return output;
}

/** Every file of the fixed implementation, by its path in the repository. */
function filledFiles(dir = FILLED, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory()
    ? filledFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
    : [`${prefix}${entry.name.replace(/\.txt$/, '')}`]));
}

beforeAll(async () => {
  // The repository as it is checked out (tracked and new files, not what git ignores), with this
  // checkout's node_modules linked in: nothing is installed.
  work = mkdtempSync(path.join(tmpdir(), 'new-endpoint-'));
  const listed = await new Promise<string>((resolve, reject) => {
    execFile('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 32 * 1024 * 1024 }, (err, stdout) => {
      if (err) reject(new Error(`git ls-files failed: ${err.message}`));
      else resolve(stdout);
    });
  });
  for (const file of listed.split('\0').filter(Boolean)) {
    if (file.startsWith('test/scaffold/') || file === 'node_modules') continue;
    try {
      mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
      cpSync(path.join(root, file), path.join(work, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // deleted, not yet committed
    }
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(work, 'node_modules'), 'dir');
  await ok('git', ['init', '-q']);
  await ok('git', ['add', '-A']);
  await ok('git', [...GIT, 'commit', '-q', '-m', 'before the endpoint']);
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe(`npm run new:endpoint -- GET ${PLATFORM}, end to end in a copy of the repository`, () => {
  it('writes the endpoint, whose own test fails until the developer writes their part; refuses it a second time', async () => {
    const scaffold = ['scripts/new-endpoint.mjs', 'GET', PLATFORM, '--scope', 'visibility:read', '--like', 'getPromptAnalytics'];
    await ok('node', scaffold);
    await ok('node', ['scripts/codegen.mjs']);
    await ok('git', ['add', '-A']);
    await ok('git', [...GIT, 'commit', '-q', '-m', 'the scaffold']);

    const again = await run('node', scaffold);
    expect([again.code, again.output.trim()]).toEqual([1, `new:endpoint: ${PLATFORM} is already in the contract (openapi/openapi.yaml); nothing written`]);

    const unfilled = await run(VITEST, ['run', '--project', 'fast', NEW_TEST]);
    expect(unfilled.code, unfilled.output.slice(-2000)).toBe(1);
    expect(unfilled.output).toContain(`getPromptPlatform: write the records it reads into workspace`);
  }, 180_000);

  it('takes at most 5 hand-written files and 200 hand-written lines, and then passes the gates and its tests on both stores', async () => {
    for (const file of filledFiles()) cpSync(path.join(FILLED, `${file}.txt`), path.join(work, file));
    // Files the developer changed after the scaffold, and files it did not write.
    const numstat = await ok('git', ['diff', '--numstat', 'HEAD', '--', '.', ':(exclude)generated']);
    const untracked = (await ok('git', ['ls-files', '--others', '--exclude-standard'])).split('\n').filter(Boolean);
    const handWritten = [
      ...numstat.split('\n').filter(Boolean).map((line) => {
        const [added, , file] = line.split('\t');
        return { file: file!, lines: Number(added) };
      }),
      ...untracked.map((file) => ({ file, lines: readFileSync(path.join(work, file), 'utf8').split('\n').length - 1 })),
    ];
    console.log(`hand-written after the scaffold:\n${handWritten.map((h) => `  ${String(h.lines).padStart(4)}  ${h.file}`).join('\n')}`
      + `\n  ${String(handWritten.reduce((n, h) => n + h.lines, 0)).padStart(4)}  in ${handWritten.length} files`);
    expect(handWritten.map((h) => h.file).sort()).toEqual(filledFiles().sort());
    expect(handWritten.length).toBeLessThanOrEqual(5);
    expect(handWritten.reduce((n, h) => n + h.lines, 0)).toBeLessThanOrEqual(200);

    // The gates the endpoint touches, one after the other (the machine's cores are shared). The
    // codegen writes generated/ from the developer's contract files; `codegen --check` right after
    // it would compare that output with the same generation over the same input, so it is left to
    // the checkout's own gate. spec-lint lints the OpenAPI document: the AsyncAPI document, which
    // the bare gate lints too, is the one before the endpoint (checked below).
    await ok('node', ['scripts/codegen.mjs']);
    expect(await ok('git', ['diff', '--name-only', 'HEAD~1', '--', 'asyncapi'])).toBe('');
    await ok('node', ['scripts/spec-lint.mjs', 'openapi/openapi.yaml']);
    // The typecheck of the whole project (as `tsc --noEmit -p tsconfig.json`), and the linter over
    // the TypeScript files the scaffold and the developer wrote or changed, over one program.
    const written = (await ok('git', ['diff', '--name-only', 'HEAD~1', '--', '*.ts'])).split('\n').filter(Boolean);
    const added = (await ok('git', ['ls-files', '--others', '--exclude-standard', '--', '*.ts'])).split('\n').filter(Boolean);
    const changed = [...new Set([...written, ...added])];
    await ok('node', ['scripts/typecheck-and-lint.mjs', ...changed]);
    // The layer rules and the cycle check from the files of src/ written or changed, following
    // what they import: a new forbidden import starts in one of them, and a new cycle goes through
    // one of them and back, so both are found; the rest of src/ is the checkout's, which the
    // checkout's own deps:check covers (the whole of src/ cost 7.1 s of CPU, these 4.9 s).
    await ok('node_modules/.bin/depcruise', [...changed.filter((file) => file.startsWith('src/')), '--config', '.dependency-cruiser.cjs', '--output-type', 'err']);

    // Its own test on both stores; its contract cases and matrices on both; the same bytes from
    // both stores for it (every-read-same-json.test.ts narrowed to it and the list its prompt ids
    // come from: every other GET is unchanged and compared by that file's own run); the examples'
    // calls. Only the tests that name it or check every operation run (-t), not the rest of those
    // files; in one worker, so that each lane imports the application once rather than per file.
    const names = [
      'PromptPlatform', 'GET /api/v1/visibility/prompts/\\{prompt\\}/platforms', 'what each matrix needs', 'one scenario for every operation',
      'one handler per operationId', 'every read operation of the contract', 'the compiled requirement table',
    ].join('|');
    const tests = await run(VITEST, [
      'run', '--project', 'fast', '--project', 'fast-postgres', '--maxWorkers', '1', '--reporter', 'verbose', '-t', names,
      NEW_TEST, 'test/contract/contract.test.ts', 'test/contract/matrices.test.ts',
      'test/integration/store/every-read-same-json.test.ts', 'test/unit/sdk-example-coverage.test.ts',
      'test/unit/http/operation-requirements.test.ts',
    ], { WSAPI_EVERY_READ_OPERATIONS: 'getPromptPlatform' });
    expect(tests.code, tests.output.slice(-4000)).toBe(0);
    // Its own test and its cross-tenant case ran, and passed, on each store.
    for (const lane of ['fast', 'fast-postgres']) {
      expect(tests.output).toMatch(new RegExp(`✓[^\\n]* ${lane} [^\\n]*answers 200 with the data of the records it reads`));
      expect(tests.output).toMatch(new RegExp(`✓[^\\n]* ${lane} [^\\n]*getPromptPlatform: 404 with the body of an unknown id`));
    }
    expect(tests.output).toMatch(/✓[^\n]* fast [^\n]*answers the same bytes for GET getPromptPlatform and the lists it takes ids from/);
    // Its scope, as the guards compile it from the contract, is the one the contract names.
    expect(tests.output).toMatch(/✓[^\n]* fast [^\n]*gives every operation, as the matcher finds it for a request, what its security and extensions say/);
  }, 900_000);
});
