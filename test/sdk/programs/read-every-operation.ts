// What every generator's program shares: the loop over the contract's read operations, through the
// client's own generic call (given by each program), so a new endpoint needs no edit here.
export interface GenericAnswer {
  status: number;
  body: unknown;
}
export type GenericGet = (path: string, pathParams: Record<string, string>) => Promise<GenericAnswer>;

interface Parameter { name?: string; in?: string; schema?: { $ref?: string; enum?: unknown[] }; $ref?: string }
interface Contract {
  paths: Record<string, { parameters?: Parameter[]; get?: { operationId: string; parameters?: Parameter[]; responses: Record<string, { content?: Record<string, unknown> }> } }>;
}

/** A node with its local `$ref`s followed. */
function resolved<T extends { $ref?: string }>(contract: object, node: T | undefined): T | undefined {
  let current: unknown = node;
  for (let hops = 0; hops < 20 && typeof (current as { $ref?: unknown } | undefined)?.$ref === 'string'; hops += 1) {
    current = (current as { $ref: string }).$ref.slice(2).split('/').reduce<unknown>((n, key) => (n as Record<string, unknown> | undefined)?.[key], contract);
  }
  return current as T | undefined;
}

/**
 * Calls every GET under /api/v1 that answers JSON (the downloads are each program's typed calls),
 * lists first. Each path parameter, whatever their number, takes the first value of its schema's
 * enum, or else the id of the first item of the list the path extends at that parameter.
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
    const declared = [...(item.parameters ?? []), ...(item.get!.parameters ?? [])].map((p) => resolved(contract, p));
    for (const name of names) {
      const values = resolved(contract, declared.find((p) => p?.in === 'path' && p.name === name)?.schema)?.enum;
      if (values !== undefined && values.length > 0) {
        pathParams[name] = String(values[0]);
        continue;
      }
      const list = path.slice(0, path.indexOf(`/{${name}}`));
      const items = (bodies.get(list) as { data?: { items?: Array<{ id: string }> } } | undefined)?.data?.items ?? [];
      if (items[0] === undefined) throw new Error(`${item.get!.operationId}: ${list} listed nothing to read {${name}} by`);
      pathParams[name] = items[0].id;
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
