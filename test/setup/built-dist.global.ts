import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspacePackageFolders } from './workspace-package-aliases.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Modification times of every file under `dir`. */
function mtimes(dir: string): number[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
}

/**
 * The slow lane's process tests spawn the command line compiled into dist/, as the `workspace-api`
 * bin and `npm start` run it (test/cli/run-cli.ts): a plain `node` start, without tsx compiling
 * the sources again in every child. `npm test` builds dist/ just before the tests; a bare
 * `vitest run` after a change under src/ or a workspace package's src/ builds it here first, so no
 * test runs stale JavaScript. The build removes dist/ and writes every file again after the
 * packages', so the oldest file in dist/ is its build time.
 */
export function setup(): void {
  const built = existsSync(path.join(ROOT, 'dist', 'cli', 'main.js')) ? Math.min(...mtimes(path.join(ROOT, 'dist'))) : 0;
  const sources = ['src', ...workspacePackageFolders().map((folder) => `${folder}/src`)].flatMap((dir) => mtimes(path.join(ROOT, dir)));
  if (Math.max(...sources) < built) return;
  console.log('dist/ is older than the sources: building it (npm run build) for the process tests');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
}
