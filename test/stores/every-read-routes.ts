import { followRefs } from '@workspace-read-api/contract/json-pointer.js';

// What the both-stores test (every-read-same-json.test.ts) asks of each GET of the contract, worked
// out from the contract alone: no server, no data. A route it cannot fill in (a path parameter
// with no list to take its ids from and no enum) is a gap named here, never a route left out.

const THIS_FILE = 'test/stores/every-read-routes.ts';

export interface Parameter { name: string; in: string; schema: Schema }
interface Schema { $ref?: string; enum?: string[]; type?: string; format?: string }
interface Operation { operationId: string; parameters?: Array<Parameter | { $ref: string }>; security?: Array<Record<string, string[]>> }
export interface ReadDocument { paths: Record<string, Record<string, unknown>> }

/** Where the values of one path parameter come from. */
type PathValues =
  | { name: string; from: 'workspace' }
  | { name: string; from: 'list'; list: string }
  | { name: string; from: 'enum'; values: string[] };

export interface ReadRoute {
  path: string;
  operationId: string;
  /** Read with a member token (the administration API), not an API key. */
  member: boolean;
  /** Path parameters in the order they appear, each with its source. */
  pathValues: PathValues[];
  /** Query parameters but `limit` and `cursor`, each tried with the values it documents. */
  query: Parameter[];
  /** Takes `limit` and `cursor`: read page by page. */
  paged: boolean;
  /** An event feed: the walk ends on `has_more: false`, its `next_cursor` is never null. */
  feed: boolean;
}

/**
 * Routes whose reads need data an import does not make (the administration API's webhooks and
 * their deliveries are created over HTTP): each is compared on both stores by the file named.
 */
const COMPARED_ELSEWHERE: Record<string, string> = {
  '/api/workspace/{workspace_id}/webhooks/{webhook_id}': 'test/stores/webhooks-parity.test.ts',
  '/api/workspace/{workspace_id}/webhooks/{webhook_id}/deliveries': 'test/stores/webhook-deliveries-parity.test.ts',
  '/api/workspace/{workspace_id}/webhooks/{webhook_id}/deliveries/{delivery_id}': 'test/stores/webhook-deliveries-parity.test.ts',
};

/** A parameter or schema with its `$ref` followed through the document. */
function resolved<T>(document: ReadDocument, item: unknown): T {
  return followRefs(document, item).node as T;
}

/**
 * Every GET of the contract as the both-stores test asks it, and the routes it cannot ask, each
 * gap naming the route, the operation and the file to edit.
 */
export function everyReadRoute(document: ReadDocument, elsewhere: Record<string, string> = COMPARED_ELSEWHERE): { routes: ReadRoute[]; gaps: string[] } {
  const routes: ReadRoute[] = [];
  const gaps: string[] = [];
  const listPaths = new Set(Object.entries(document.paths)
    .filter(([, item]) => ((item.get as Operation | undefined)?.parameters ?? []).some((p) => resolved<Parameter>(document, p).name === 'limit'))
    .map(([path]) => path));
  for (const [path, item] of Object.entries(document.paths)) {
    const op = item.get as Operation | undefined;
    if (!op || path in elsewhere) continue;
    const parameters = (op.parameters ?? []).map((p) => resolved<Parameter>(document, p));
    const pathValues: PathValues[] = [];
    for (const p of parameters.filter((x) => x.in === 'path')) {
      const schema = resolved<Schema>(document, p.schema);
      const list = path.slice(0, path.indexOf(`/{${p.name}}`));
      if (p.name === 'workspace_id') pathValues.push({ name: p.name, from: 'workspace' });
      else if (schema.enum) pathValues.push({ name: p.name, from: 'enum', values: schema.enum });
      else if (listPaths.has(list)) pathValues.push({ name: p.name, from: 'list', list });
      else {
        gaps.push(`GET ${path} (${op.operationId}): no values for {${p.name}}: no list GET at ${list} and no enum; `
          + `name a source in ${THIS_FILE} (or the file that compares it in COMPARED_ELSEWHERE)`);
      }
    }
    if (pathValues.length !== parameters.filter((x) => x.in === 'path').length) continue;
    const security = op.security ?? [];
    const member = security.some((s) => 'MemberToken' in s) && !security.some((s) => 'ApiKeyHeader' in s);
    routes.push({
      path,
      operationId: op.operationId,
      member,
      pathValues,
      query: parameters.filter((p) => p.in === 'query' && p.name !== 'cursor' && p.name !== 'limit'),
      paged: parameters.some((p) => p.name === 'limit'),
      feed: parameters.some((p) => p.name === 'cursor') && path.endsWith('/events') && !member,
    });
  }
  // Lists before the reads that take their ids, whatever the contract's order.
  const depth = (path: string) => (path.match(/\{/g) ?? []).length;
  routes.sort((a, b) => depth(a.path) - depth(b.path));
  return { routes, gaps };
}

/** The values a query parameter is tried with: each of an enum, both booleans, ids seen in answers. */
export function queryValues(document: ReadDocument, parameter: Parameter, seenIds: Map<string, Set<string>>): string[] {
  const schema = resolved<Schema>(document, parameter.schema);
  if (schema.enum) return schema.enum;
  if (schema.type === 'boolean') return ['true', 'false'];
  if (schema.format === 'uuid') {
    const ids = [...(seenIds.get(parameter.name) ?? seenIds.get(`${parameter.name}_id`) ?? [])].sort();
    return ids.length <= 2 ? ids : [ids[0]!, ids[Math.floor(ids.length / 2)]!, ids.at(-1)!];
  }
  if (schema.format === 'date-time') return ['2026-11-15T00:00:00.000Z', '2026-11-22T11:59:59.999Z'];
  if (parameter.name === 'q') return ['best', 'ANALYTICS', 'zzz-nothing'];
  if (parameter.name === 'alpha') return ['0.01', '0.2'];
  return [];
}

/**
 * Routes of the plan the run never compared (a list with no items to read by id, say): each would
 * otherwise have been left out without a word.
 */
export function routesNotCompared(routes: ReadRoute[], compared: ReadonlySet<string>): string[] {
  return routes.filter((r) => !compared.has(r.path))
    .map((r) => `GET ${r.path} (${r.operationId}): never compared: the data of test/stores/every-read-same-json.test.ts has nothing to read there`);
}

/**
 * The routes of the operations named and, before them, the lists their path parameters take ids
 * from, in the contract's order (the order the both-stores test asks them in).
 */
export function routesOf(routes: ReadRoute[], operationIds: string[]): ReadRoute[] {
  const unknown = operationIds.filter((id) => !routes.some((r) => r.operationId === id));
  if (unknown.length > 0) throw new Error(`no GET of the contract has the operationId ${unknown.join(', ')}`);
  const wanted = new Set(routes.filter((r) => operationIds.includes(r.operationId)).map((r) => r.path));
  for (let grew = true; grew;) {
    grew = false;
    for (const route of routes.filter((r) => wanted.has(r.path))) {
      for (const source of route.pathValues) {
        if (source.from === 'list' && !wanted.has(source.list)) {
          wanted.add(source.list);
          grew = true;
        }
      }
    }
  }
  return routes.filter((r) => wanted.has(r.path));
}
