import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { supportedRange, unsupportedNodeMessage } from '../../src/supported-node.js';

interface Lockfile { packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }> }
const lockfile = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lockfile;
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };

/** The first release of each line the range admits (one `||` part per line): where a narrower dependency shows first. */
function lowestAdmitted(range: string): string[] {
  return range.split('||').map((part) => semver.minVersion(part.trim())!.version);
}

describe('the supported Node lines (package.json engines)', () => {
  it('admits Node 22, 24 and 26 at their latest releases and later, and refuses Node 20 and the odd lines', () => {
    const range = supportedRange();
    expect(range).toBe(manifest.engines.node);
    for (const version of ['22.23.5', '24.19.0', '24.22.3', '26.0.0', '26.12.1', '28.1.0']) expect(semver.satisfies(version, range), version).toBe(true);
    for (const version of ['20.20.2', '21.7.3', '23.11.1', '25.9.0', '18.20.8']) expect(semver.satisfies(version, range), version).toBe(false);
  });

  it('admits no Node that a locked package refuses, so `npm ci` under engine-strict works on every admitted release', () => {
    const range = supportedRange();
    const lowest = lowestAdmitted(range);
    expect(lowest.map((version) => semver.major(version))).toEqual([22, 24, 26]);
    const refusing: string[] = [];
    for (const [location, entry] of Object.entries(lockfile.packages)) {
      const engines = entry.engines;
      const node = engines && !Array.isArray(engines) ? engines.node : undefined;
      if (!node || !location) continue;
      for (const version of lowest) if (!semver.satisfies(version, node)) refusing.push(`${location} (node ${node}) refuses ${version}`);
    }
    expect(refusing).toEqual([]);
  });

  it('names the running version, the supported range and where to get a supported Node', () => {
    expect(unsupportedNodeMessage('24.22.3', '^24.0.0')).toBeUndefined();
    expect(unsupportedNodeMessage('20.20.2', '^22.19.0 || ^24.11.0')).toBe(
      'workspace-api: Node 20.20.2 is not supported; this release runs on Node ^22.19.0 || ^24.11.0 (package.json engines). '
      + 'Install a supported Node (README, "Node versions" says how to fetch Node 24 from the npm registry) and run it again.\n');
  });
});

describe('README, "Node versions"', () => {
  it('states the range package.json engines holds', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`(\`${manifest.engines.node}\`:`);
  });
});
