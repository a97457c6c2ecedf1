// Which read operations the client examples (examples/) call, read from their source text: a pure
// check over the contract and two files, cheap enough for the fast lane, naming each operation
// with no example call and the file to add it to.

type Json = Record<string, any>;

/** The read API: every GET under /api/v1 of a bundled contract. */
function readOperations(document: Json): Array<{ path: string; operationId: string }> {
  return Object.entries(document.paths as Json)
    .filter(([p]) => p.startsWith('/api/v1/'))
    .flatMap(([p, item]) => (item.get?.operationId ? [{ path: p, operationId: item.get.operationId as string }] : []));
}

/** An example program: `openapi-fetch` calls `client.GET('<path>'…)`; `hey-api` calls the SDK function named by the operationId. */
export interface ExampleSource {
  file: string;
  style: 'openapi-fetch' | 'hey-api';
  source: string;
}

/** The operationIds an example calls, and the calls that match no read operation of the contract. */
function calls(example: ExampleSource, reads: Array<{ path: string; operationId: string }>): { called: Set<string>; unknown: string[] } {
  if (example.style === 'openapi-fetch') {
    const byPath = new Map(reads.map((o) => [o.path, o.operationId]));
    const paths = [...example.source.matchAll(/client\.GET\(\s*'([^']+)'/g)].map((m) => m[1]!);
    return {
      called: new Set(paths.flatMap((p) => (byPath.has(p) ? [byPath.get(p)!] : []))),
      unknown: paths.filter((p) => !byPath.has(p)).map((p) => `GET ${p}`),
    };
  }
  const imported = /import\s*\{([^}]*)\}\s*from\s*'\.\/generated\/sdk\.gen\.js'/.exec(example.source)?.[1] ?? '';
  const functions = imported.split(',').map((s) => s.trim()).filter(Boolean);
  const known = new Set(reads.map((o) => o.operationId));
  const called = functions.filter((name) => new RegExp(`\\b${name}\\(`).test(example.source));
  return { called: new Set(called.filter((name) => known.has(name))), unknown: called.filter((name) => !known.has(name)) };
}

/**
 * One line per read operation an example does not call (naming the operation, its path and the
 * example's file) and per call an example makes that the contract does not have.
 */
export function exampleCoverageGaps(document: Json, examples: ExampleSource[]): string[] {
  const reads = readOperations(document);
  const gaps: string[] = [];
  for (const example of examples) {
    const { called, unknown } = calls(example, reads);
    for (const op of reads) {
      if (!called.has(op.operationId)) gaps.push(`${op.operationId} (GET ${op.path}): no call in ${example.file}`);
    }
    for (const call of unknown) gaps.push(`${example.file} calls ${call}, which is not a read operation of the contract`);
  }
  return gaps;
}
