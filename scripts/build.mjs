// Compiles the service for production (`npm run build`, also run by `npm ci` through `prepare`):
// first each workspace package of packages/ into its own dist/ (with declarations), in the order
// they depend on each other, then src/ into dist/, which imports the packages by name (Node finds
// their dist/ through the workspace links in node_modules). tsc emits the JavaScript; the files the
// service reads at run time beside its modules (the SQL migrations of SQLite,
// src/store/migrations/, and of PostgreSQL, src/store/postgres/migrations/; the reference page's
// assets) are copied next to them, so dist/ mirrors src/.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The workspace packages, as package.json lists them: each after those it imports. */
const WORKSPACE_PACKAGES = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces;

function compile(dir) {
  rmSync(path.join(root, dir, 'dist'), { recursive: true, force: true });
  execFileSync(process.execPath, [tsc, '-p', path.join(root, dir, 'tsconfig.build.json')], { stdio: 'inherit' });
}

for (const dir of WORKSPACE_PACKAGES) compile(dir);
compile('.');
cpSync(path.join(root, 'src'), path.join(root, 'dist'), {
  recursive: true,
  filter: (from) => {
    const name = path.basename(from);
    return !name.endsWith('.ts') && name !== 'README.md';
  },
});
