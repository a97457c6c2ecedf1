/** One scrape of a Prometheus text page: each sample by `name{label="value",…}` (labels sorted). */
export type Scrape = Map<string, number>;

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function keyOf(name: string, labels: Record<string, string>): string {
  const parts = Object.keys(labels).sort().map((k) => `${k}="${labels[k]}"`);
  return parts.length === 0 ? name : `${name}{${parts.join(',')}}`;
}

/** Fetches `GET /metrics` and parses every sample; fails unless it is the Prometheus text format. */
export async function scrape(metricsUrl: string): Promise<Scrape> {
  const res = await fetch(metricsUrl);
  if (res.status !== 200) throw new Error(`${metricsUrl} answered ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain; version=0.0.4')) throw new Error(`${metricsUrl} is not Prometheus text: ${type}`);
  const samples: Scrape = new Map();
  for (const line of (await res.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (match[2] ?? '').matchAll(LABEL)) labels[k!] = v!;
    samples.set(keyOf(match[1]!, labels), Number(match[3]));
  }
  return samples;
}

/** The value of one series in a scrape; undefined when the scrape does not have it. */
export function valueOf(samples: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.get(keyOf(name, labels));
}
