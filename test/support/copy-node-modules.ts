import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/** The scope of this repository's workspace packages (packages/) in node_modules. */
const WORKSPACE_SCOPE = '@workspace-read-api';

/**
 * node_modules for a copy of this repository at `work`, installing nothing: every installed
 * package is a link to this checkout's, but the workspace packages are linked to the copy's own
 * packages/, as `npm ci` in the copy would link them. A build in the copy then compiles the
 * service against the copy's contract library, not against this checkout's.
 */
export function linkNodeModulesInto(root: string, work: string): void {
  const from = path.join(root, 'node_modules');
  const into = path.join(work, 'node_modules');
  mkdirSync(into);
  for (const name of readdirSync(from)) {
    if (name !== WORKSPACE_SCOPE) symlinkSync(path.join(from, name), path.join(into, name));
  }
  mkdirSync(path.join(into, WORKSPACE_SCOPE));
  for (const name of readdirSync(path.join(from, WORKSPACE_SCOPE))) {
    symlinkSync(path.join('..', '..', 'packages', name), path.join(into, WORKSPACE_SCOPE, name), 'dir');
  }
}
