// What the HTTP conventions cost on a large JSON answer, through the full service: a page of 100
// answers (about 90 KB) sent as it is, gzip-compressed, br-compressed, and answered 304 to a
// matching If-None-Match (the ETag is hashed from the bytes either way). Also the size on the wire.
// Options: --duration=SECONDS (5) --connections=N (10).
import { cpus, totalmem } from 'node:os';
import { request } from 'node:http';
import { dataset } from './support/prompt-dataset.js';
import { freshKey, measure, option, startChild, stopChild } from './support/load.js';

const DURATION = Number(option('duration', '5'));
const CONNECTIONS = Number(option('connections', '10'));
const PATH = '/api/v1/visibility/answers?range=90d&limit=100';

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`);
console.log(`load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per case, loopback, server in its own process\n`);

/** One request: its ETag and the number of bytes on the wire. */
function probe(url: string, headers: Record<string, string>): Promise<{ etag: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    request(`${url}${PATH}`, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => { bytes += chunk.length; });
      res.on('end', () => resolve({ etag: String(res.headers.etag), bytes }));
    }).on('error', reject).end();
  });
}

const data = await dataset({ snapshots: 10_000, prompts: 40, days: 90 }, (line) => console.log(line));
const auth = { authorization: `Bearer ${await freshKey(data)}` };
const { url, child } = await startChild('full', data);
let failed = false;
try {
  const plain = await probe(url, { ...auth, 'accept-encoding': 'identity' });
  const cases = [
    { name: 'identity', headers: { ...auth, 'accept-encoding': 'identity' } },
    { name: 'gzip', headers: { ...auth, 'accept-encoding': 'gzip' } },
    { name: 'br', headers: { ...auth, 'accept-encoding': 'br' } },
    { name: '304 (If-None-Match)', headers: { ...auth, 'accept-encoding': 'gzip', 'if-none-match': plain.etag } },
  ];
  for (const c of cases) {
    const { bytes } = await probe(url, c.headers);
    await measure(url, PATH, c.headers, 1, CONNECTIONS); // warm-up
    const m = await measure(url, PATH, c.headers, DURATION, CONNECTIONS);
    // measure() counts only 200s as samples; a 304 case is read from its request rate.
    const ok = c.name.startsWith('304') ? m.requests > 0 : m.errors === 0;
    failed ||= !ok;
    const latency = c.name.startsWith('304') ? '' : `p50 ${m.p50.toFixed(2).padStart(6)} ms  p99 ${m.p99.toFixed(2).padStart(6)} ms  `;
    console.log(`${c.name.padEnd(20)}  ${String(bytes).padStart(6)} bytes  ${latency}${Math.round(m.rps).toString().padStart(6)} req/s`);
  }
} finally {
  await stopChild(child);
}
process.exit(failed ? 1 : 0);
