import { fileURLToPath } from 'node:url';

/**
 * The workspace packages (packages/), imported by name, as the tests run them: from their
 * TypeScript, as tsconfig.json's `paths` has tsc and tsx read them, never from a dist/ that may be
 * older than the source. Every vitest configuration gives each project these.
 */
export const workspacePackageAliases = ['contract', 'contract-test'].map((name) => ({
  find: new RegExp(`^@workspace-read-api/${name}/(.+)\\.js$`),
  replacement: fileURLToPath(new URL(`../../packages/${name}/src/$1.ts`, import.meta.url)),
}));
