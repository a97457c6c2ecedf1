import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The workspace packages (packages/), imported by name, as the tests run them: from their
 * TypeScript, as tsconfig.json's `paths` has tsc and tsx read them, never from a dist/ that may be
 * older than the source. Every vitest configuration gives each project these.
 */
export const workspacePackageAliases = workspacePackageFolders().map((folder) => {
  const { name } = JSON.parse(readFileSync(new URL(`../../${folder}/package.json`, import.meta.url), 'utf8')) as { name: string };
  return { find: new RegExp(`^${name}/(.+)\\.js$`), replacement: fileURLToPath(new URL(`../../${folder}/src/$1.ts`, import.meta.url)) };
});

/** The workspace packages' folders, as the root package.json lists them (`packages/contract`, …). */
export function workspacePackageFolders(): string[] {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { workspaces: string[] }).workspaces;
}
