// The quick loop while working (`npm run test:quick`): the gates that take seconds, an incremental
// typecheck, and the SQLite tests of what changed since HEAD (or since the commit given as the
// first argument). `npm test` before committing runs everything.
//
// Every HTTP test reaches the app through one test server, so `vitest related` selects nearly the
// whole suite. The tests are chosen here instead from what the change names:
// - an operation: a changed file (a handler, a store module, a path file) that names an
//   operationId of the contract selects the tests named after it (`listPrompts` ->
//   `list-prompts.test.ts`) and the tests that name it (the contract-test checker's own tests,
//   minutes long, aside);
// - a module: the test files that import a changed file directly;
// - a test file: itself.
// Usage: npm run test:quick [-- BASE_COMMIT]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const base = process.argv[2] ?? 'HEAD';
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

function step(name, command, args) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  console.log(`test:quick: ${name} ${result.status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

const kebab = (id) => id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** operationId -> its path template, from the bundled contract. */
function operations() {
  const doc = JSON.parse(readFileSync(path.join(root, 'generated', 'openapi.json'), 'utf8'));
  const found = new Map();
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const operation of Object.values(item)) {
      if (operation && typeof operation.operationId === 'string') found.set(operation.operationId, template);
    }
  }
  return found;
}

/** The test files of the fast lane to run for these changed files, with the reason for each. */
export function selectTests(changed, testFiles, readText, ops) {
  const chosen = new Map();
  const choose = (file, why) => { if (!chosen.has(file)) chosen.set(file, why); };
  for (const file of changed) {
    if (/\.test\.ts$/.test(file)) {
      choose(file, 'changed');
      continue;
    }
    if (!/^(src|packages\/[^/]+\/src|openapi|test\/support|test\/contract)\//.test(file) || !existsSync(path.join(root, file))) continue;
    const text = readText(file);
    for (const id of ops.keys()) {
      if (!new RegExp(`\\b${id}\\b`).test(text)) continue;
      for (const test of testFiles) {
        if (path.basename(test) === `${kebab(id)}.test.ts`) choose(test, `named after ${id}`);
      }
      for (const test of testFiles) {
        if (!/^test\/(contract|integration\/contract-test)\//.test(test) && readText(test).includes(`'${id}'`)) choose(test, `names ${id}`);
      }
    }
    const module = path.basename(file).replace(/\.ts$/, '.js');
    for (const test of testFiles) {
      if (new RegExp(`from '[^']*/${module.replace(/[.]/g, '\\.')}'`).test(readText(test))) choose(test, `imports ${file}`);
    }
  }
  return chosen;
}

const changed = [...new Set([...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')])];
const contractChanged = changed.some((f) => /^(openapi|asyncapi)\//.test(f));

if (contractChanged) {
  step('spec:lint', 'npm', ['run', '-s', 'spec:lint']);
  step('codegen', 'npm', ['run', '-s', 'codegen']);
}
step('typecheck (incremental)', process.execPath, [
  path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--incremental', '--tsBuildInfoFile', path.join(root, 'node_modules', '.cache', 'tsc-quick.tsbuildinfo'), '-p', 'tsconfig.json',
]);
const lintable = changed.filter((f) => f.endsWith('.ts') && existsSync(path.join(root, f)) && statSync(path.join(root, f)).isFile());
if (lintable.length > 0) step('lint (changed files)', process.execPath, [path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--no-warn-ignored', '--max-warnings', '0', ...lintable]);

const texts = new Map();
const readText = (file) => texts.get(file) ?? texts.set(file, readFileSync(path.join(root, file), 'utf8')).get(file);
const slow = /^test\/(sdk|prism|clients|browser|cli|deploy|docs|runtime|scaffold|process)\/|lint\.test/;
const testFiles = filesUnder(path.join(root, 'test')).map((f) => path.relative(root, f)).filter((f) => f.endsWith('.test.ts') && !slow.test(f));
const chosen = selectTests(changed, testFiles, readText, operations());
if (chosen.size === 0) {
  console.log('test:quick: no test names what changed; `npm test` runs everything');
  process.exit(0);
}
for (const [file, why] of chosen) console.log(`test:quick: ${file} (${why})`);
step('tests (SQLite)', process.execPath, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--project', 'fast', ...chosen.keys()]);
