// Compiles src/ into dist/ for production (`npm run build`, also run by `npm ci` through `prepare`).
// tsc emits the JavaScript; the files the service reads at run time beside its modules (the SQL
// migrations of SQLite, src/store/migrations/, and of PostgreSQL, src/store/postgres/migrations/;
// the reference page's assets) are copied next to them, so dist/ mirrors src/.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
cpSync(src, dist, {
  recursive: true,
  filter: (from) => {
    const name = path.basename(from);
    return !name.endsWith('.ts') && name !== 'README.md';
  },
});
