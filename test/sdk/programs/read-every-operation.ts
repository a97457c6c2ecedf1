// What every generator's program shares: the loop over the contract's read operations, through the
// client's own generic call (given by each program), so a new endpoint needs no edit here.
export interface GenericAnswer {
  status: number;
  body: unknown;
}
export type GenericGet = (path: string, pathParams: Record<string, string>) => Promise<GenericAnswer>;

interface Contract {
  paths: Record<string, { get?: { operationId: string; responses: Record<string, { content?: Record<string, unknown> }> } }>;
}

/**
 * Calls every GET under /api/v1 that answers JSON (the downloads are each program's typed calls),
 * lists first: a read by id takes the id of the first item of the list its path extends.
 * Answers the operations called, each with its status.
 */
export async function readEveryOperation(baseUrl: string, get: GenericGet): Promise<string[]> {
  const contract = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Contract;
  const reads = Object.entries(contract.paths)
    .filter(([path, item]) => path.startsWith('/api/v1/') && item.get && 'application/json' in (item.get.responses['200']?.content ?? {}))
    .sort(([a], [b]) => (a.match(/\{/g) ?? []).length - (b.match(/\{/g) ?? []).length || a.localeCompare(b));
  const bodies = new Map<string, unknown>();
  const called: string[] = [];
  for (const [path, item] of reads) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const pathParams: Record<string, string> = {};
    if (names.length > 0) {
      const list = path.slice(0, path.lastIndexOf('/{'));
      const items = (bodies.get(list) as { data?: { items?: Array<{ id: string }> } } | undefined)?.data?.items ?? [];
      if (items[0] === undefined) throw new Error(`${item.get!.operationId}: ${list} listed nothing to read by id`);
      pathParams[names[0]!] = items[0].id;
    }
    const answer = await get(path, pathParams);
    if (answer.status !== 200) throw new Error(`${item.get!.operationId} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    bodies.set(path, answer.body);
    called.push(`${item.get!.operationId} ${answer.status}`);
  }
  return called;
}

/** The line each program ends with, read by the test: which operations answered, which errors were read. */
export function report(generator: string, called: string[], errors: string[], downloads: string[]): void {
  console.log(JSON.stringify({ generator, called, errors, downloads }));
}
