import { readFileSync } from 'node:fs';
import semver from 'semver';

// The Node lines the service supports are the ones `engines.node` in package.json names
// (README, "Node versions"). The command line checks the running Node against it before it loads
// anything else: better-sqlite3 13 crashes an older Node with a segmentation fault once a
// database opens, where a clear refusal is what an operator needs.

/** The engines.node range of this package. */
export function supportedRange(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
  return manifest.engines.node;
}

/** A message refusing to run on `version`, or undefined when it is supported. */
export function unsupportedNodeMessage(version: string, range = supportedRange()): string | undefined {
  if (semver.satisfies(version, range)) return undefined;
  return `workspace-api: Node ${version} is not supported; this release runs on Node ${range} (package.json engines). `
    + 'Install a supported Node (README, "Node versions" says how to fetch Node 24 from the npm registry) and run it again.\n';
}
