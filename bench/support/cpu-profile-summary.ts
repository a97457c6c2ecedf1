// Summarises a V8 CPU profile (.cpuprofile) by where the time was spent: self time per npm
// package, per module of this service (`src/...`), per Node built-in, garbage collection and V8's
// own work, in CPU µs per request. Idle samples are left out.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame belongs: `package NAME`, `src/PATH`, `node:NAME`, or V8's own buckets. */
function bucketOf(frame: ProfileNode['callFrame']): string | undefined {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName === '(idle)') return undefined;
    if (functionName === '(garbage collector)') return '(garbage collector)';
    if (functionName === '(program)') return '(program: V8 and native code)';
    return `(native) ${functionName}`;
  }
  const inPackage = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (inPackage) return `package ${inPackage[1]}`;
  const ours = /\/(src|bench)\/(.+)$/.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}`;
  if (url.startsWith('node:')) return url;
  return url;
}

/** Self CPU µs per bucket, and the profile's total non-idle µs. */
function selfTimes(file: string): { total: number; buckets: Map<string, number> } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const bucketOfNode = new Map(profile.nodes.map((node) => [node.id, bucketOf(node.callFrame)]));
  const buckets = new Map<string, number>();
  let total = 0;
  // timeDeltas[i] is the time from sample i − 1 to sample i: the time sample i stands for.
  for (let i = 1; i < profile.samples.length; i += 1) {
    const bucket = bucketOfNode.get(profile.samples[i]!);
    if (bucket === undefined) continue;
    const delta = profile.timeDeltas[i]!;
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + delta);
    total += delta;
  }
  return { total, buckets };
}

/** The summary as Markdown lines: the `top` largest buckets, µs per request and share of the CPU time. */
export function summaryLines(file: string, requests: number, top: number): string[] {
  const { total, buckets } = selfTimes(file);
  const rows = [...buckets.entries()].sort((a, b) => b[1] - a[1]);
  const shown = rows.slice(0, top);
  const rest = rows.slice(top).reduce((n, [, us]) => n + us, 0);
  const line = (name: string, us: number) => `| ${name} | ${(us / requests).toFixed(1)} | ${((100 * us) / total).toFixed(1)} % |`;
  return [
    `CPU ${(total / requests).toFixed(1)} µs per request over ${requests.toLocaleString('en-US')} requests`,
    '',
    '| where (self time) | µs per request | share |',
    '|---|---|---|',
    ...shown.map(([name, us]) => line(name, us)),
    ...(rest > 0 ? [line(`${rows.length - top} more`, rest)] : []),
  ];
}

/**
 * Two profiles of one case side by side, in CPU µs per request: the `top` buckets that cost the
 * most in either, then the rest, then the whole.
 */
export function comparisonLines(before: { file: string; requests: number }, after: { file: string; requests: number }, top: number): string[] {
  const [b, a] = [selfTimes(before.file), selfTimes(after.file)];
  const perRequest = (times: Map<string, number>, requests: number, name: string) => (times.get(name) ?? 0) / requests;
  const names = [...new Set([...b.buckets.keys(), ...a.buckets.keys()])]
    .sort((x, y) => Math.max(perRequest(b.buckets, before.requests, y), perRequest(a.buckets, after.requests, y))
      - Math.max(perRequest(b.buckets, before.requests, x), perRequest(a.buckets, after.requests, x)));
  const shown = names.slice(0, top);
  const restOf = (times: Map<string, number>, requests: number) => names.slice(top).reduce((n, name) => n + perRequest(times, requests, name), 0);
  const row = (name: string, x: number, y: number) => `| ${name} | ${x.toFixed(1)} | ${y.toFixed(1)} | ${(y - x).toFixed(1)} |`;
  return [
    '| where (self time), CPU µs per request | before | after | change |',
    '|---|---|---|---|',
    ...shown.map((name) => row(name, perRequest(b.buckets, before.requests, name), perRequest(a.buckets, after.requests, name))),
    row(`${names.length - shown.length} more`, restOf(b.buckets, before.requests), restOf(a.buckets, after.requests)),
    row('**all**', b.total / before.requests, a.total / after.requests),
  ];
}
