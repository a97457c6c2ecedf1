import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cpuSeconds } from '../support/cpu-seconds.js';
import { linkNodeModulesInto } from '../support/copy-node-modules.js';
import { shellBlocksOf } from '../support/doc-blocks.js';

// A backend developer adds a read in a copy of this repository, as docs/backend-developers.md
// says: the scaffold, whose test fails; the developer's part (the files under
// test/scaffold/scaffold-example/, a fixed implementation); then the gates and the tests that walk
// the contract's operations (every test file marked `// walks-operations`), on SQLite and on
// PostgreSQL. The read is one prompt's mention and citation rates on one platform, at
// GET /api/v1/visibility/prompts/{prompt}/scaffold-example/{platform}: a path reserved for this
// test (docs/backend-developers.md), so that no other test has to keep it out of the contract.
// The hand-written part is counted as every file under openapi/, src/, test/ and docs/ created or
// changed after the scaffold ran (generated/ aside: codegen writes it).
const root = fileURLToPath(new URL('../..', import.meta.url));
const FILLED = path.join(root, 'test/scaffold/scaffold-example');
const EXAMPLE = '/api/v1/visibility/prompts/{prompt}/scaffold-example/{platform}';
const NEW_TEST = 'test/integration/visibility/get-prompt-scaffold-example.test.ts';
/** What a developer edits, and what the count takes in. */
const HAND_WRITTEN = ['openapi/', 'src/', 'test/', 'docs/'];
/** The guide whose commands this test runs, and whose statements it checks. */
const GUIDE = 'docs/backend-developers.md';
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
  // checkout's node_modules linked in (the workspace packages to the copy's own): nothing is installed.
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
  linkNodeModulesInto(root, work);
  await ok('git', ['init', '-q']);
  await ok('git', ['add', '-A']);
  await ok('git', [...GIT, 'commit', '-q', '-m', 'before the endpoint']);
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A shell line of the guide, run in the copy as a developer types it. */
function shell(line: string): Promise<{ code: number; output: string }> {
  return run('sh', ['-c', line]);
}

async function shellOk(line: string): Promise<string> {
  const { code, output } = await shell(line);
  expect(code, `${line}\n${output.slice(-3000)}`).toBe(0);
  return output;
}

/** The guide's blocks this test runs: the shell blocks that name it as where they run. */
const guideBlocks = shellBlocksOf(root, GUIDE)
  .filter((block) => block.mark.kind === 'no-run' && block.mark.reason.includes('test/scaffold/new-endpoint.process.test.ts'))
  .map((block) => block.code.split('\n').filter((line) => line.trim() !== ''));

/** The rows of the guide's table of what the developer writes, as patterns of paths (`<name>` is any one segment). */
function guideHandWritten(): RegExp[] {
  const text = readFileSync(path.join(root, GUIDE), 'utf8');
  const table = text.slice(text.indexOf('| you write |'), text.indexOf('\n\n', text.indexOf('| you write |')));
  return [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => new RegExp(`^${m[1]!.replace(/[.]/g, '\\.').replace(/<[a-z]+>/gi, '[^/]+')}$`));
}

describe(`the scaffold as ${GUIDE} tells it, end to end in a copy of the repository`, () => {
  it('runs the guide\'s commands: the scaffold writes the endpoint, whose own test fails until the developer writes their part; it refuses it a second time', async () => {
    expect(guideBlocks.map((lines) => lines.length)).toEqual([2, 5]);
    const [scaffold, codegen] = guideBlocks[0]!;
    expect(scaffold).toContain(EXAMPLE);
    await shellOk(scaffold!);
    await shellOk(codegen!);
    await ok('git', ['add', '-A']);
    await ok('git', [...GIT, 'commit', '-q', '-m', 'the scaffold']);

    const again = await shell(scaffold!);
    expect(again.code).not.toBe(0);
    expect(again.output).toContain(`new:endpoint: ${EXAMPLE} is already in the contract (openapi/openapi.yaml); nothing written`);

    const unfilled = await run(VITEST, ['run', '--project', 'fast', NEW_TEST]);
    expect(unfilled.code, unfilled.output.slice(-2000)).toBe(1);
    expect(unfilled.output).toContain('getPromptScaffoldExample: write the records it reads into workspace');

    // What the store's README says a read is made of is what the scaffold changed there.
    const storeFiles = (await ok('git', ['diff', '--name-only', 'HEAD~1', '--', 'src/store'])).split('\n').filter(Boolean);
    const readme = readFileSync(path.join(root, 'src/store/README.md'), 'utf8');
    const adding = readme.slice(readme.indexOf('## Adding a read or a write'));
    expect(storeFiles.sort()).toEqual(['src/store/interfaces/visibility-answers.ts', 'src/store/postgres/visibility-answers.ts', 'src/store/prompt-scaffold-example-statements.ts', 'src/store/sqlite/visibility-answers.ts']);
    for (const named of ['interfaces/<area>.ts', 'sqlite/<area>.ts', 'postgres/<area>.ts', '<name>-statements.ts']) expect(adding).toContain(named);
  }, 180_000);

  it('takes at most 5 hand-written files and 200 hand-written lines, those the guide lists, then passes the guide\'s gates and every test that walks the operations, on both stores', async () => {
    for (const file of filledFiles()) cpSync(path.join(FILLED, `${file}.txt`), path.join(work, file));
    // Every file the developer created or changed after the scaffold, tests and contract included.
    const numstat = await ok('git', ['diff', '--numstat', 'HEAD', '--', ...HAND_WRITTEN]);
    const untracked = (await ok('git', ['ls-files', '--others', '--exclude-standard', '--', ...HAND_WRITTEN])).split('\n').filter(Boolean);
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
    // The guide says how many they are, and its table names each of them, and nothing else.
    const guide = readFileSync(path.join(root, GUIDE), 'utf8').replace(/\s+/g, ' ');
    expect(guide).toContain(`for the example, ${handWritten.length} files and ${handWritten.reduce((n, h) => n + h.lines, 0)} lines`);
    const rows = guideHandWritten();
    expect(rows).toHaveLength(handWritten.length);
    for (const row of rows) expect(handWritten.filter((h) => row.test(h.file)).map((h) => h.file), String(row)).toHaveLength(1);

    // The developer's checkout: the scaffold's files and theirs, none committed.
    await ok('git', ['reset', '-q', '--soft', 'HEAD~1']);
    const lines = guideBlocks[1]!;
    const testLine = lines.at(-1)!;
    for (const line of lines.slice(0, -1)) await shellOk(line);
    // The test files that walk the operations, which the guide's last line finds by their mark.
    const walking = (await shellOk("grep -rl '^// walks-operations' test")).split('\n').filter(Boolean);
    expect(walking).toContain('test/contract/contract.test.ts');
    const tests = await shell(testLine);
    expect(tests.code, tests.output.slice(-4000)).toBe(0);
    // Its own test and every walking file ran, and passed, in each lane that takes it.
    const passed = (lane: string, file: string) => new RegExp(`✓[^\\n]* ${lane} [^\\n]*${file.replaceAll('.', '\\.')}`);
    for (const lane of ['fast', 'fast-postgres']) expect(tests.output).toMatch(passed(lane, NEW_TEST));
    for (const file of walking) expect(tests.output).toMatch(passed('fast', file));
  }, 1_200_000);
});
