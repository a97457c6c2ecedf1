import type { OpenApiContract, Operation, Schema } from './openapi-contract.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Real ids seen in answers, for the operations that need one in their path or as a filter. Ids
 * are filed two ways: the items of a list under the list's path (so `GET …/prompts/{prompt}` takes
 * the ids of `GET …/prompts`), and every UUID field under its name (`topic_id` and the `id` of a
 * `topic` object both under `topic`), which covers filters and nested resources.
 */
export class IdPool {
  private readonly byList = new Map<string, string[]>();
  private readonly byName = new Map<string, string[]>();

  /** Files the ids of a successful answer of `op`. */
  harvest(op: Operation, body: unknown): void {
    const data = (body as { data?: unknown } | undefined)?.data;
    const items = (data as { items?: unknown } | undefined)?.items;
    if (Array.isArray(items)) {
      for (const item of items) add(this.byList, op.path, (item as { id?: unknown } | null)?.id);
    }
    this.walk(data, lastSegment(op.path));
  }

  /** Ids for a path parameter of `op`: the list at the path before it, else any id filed under its name. */
  forPathParameter(op: Operation, name: string): string[] {
    const before = op.path.slice(0, op.path.indexOf(`/{${name}}`));
    const listed = this.byList.get(before) ?? [];
    return listed.length > 0 ? listed : this.forName(name);
  }

  /** Ids filed under a parameter's name, with or without its `_id` suffix. */
  forName(name: string): string[] {
    const bare = name.replace(/_id$/, '');
    return [...new Set([...(this.byName.get(name) ?? []), ...(this.byName.get(bare) ?? [])])];
  }

  private walk(node: unknown, name: string): void {
    if (Array.isArray(node)) {
      for (const item of node) this.walk(item, name);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'id') add(this.byName, singular(name), value);
      else if (key.endsWith('_id')) add(this.byName, key.replace(/_id$/, ''), value);
      else this.walk(value, key === 'items' || key === 'data' ? name : key);
    }
  }
}

/**
 * The names under which a successful answer of `op` may file ids, read from its documented schema
 * by the rules `IdPool.harvest` applies to the answer itself: what a run narrowed by
 * `--operations` reads to find the ids its operations need (packages/contract-test/src/narrowed-plan.ts).
 */
export function namesAnswered(contract: OpenApiContract, op: Operation): Set<string> {
  const names = new Set<string>();
  const media = contract.response(op, 200)?.media.find((m) => m.type === 'application/json');
  const root = media?.schemaPointer === undefined ? undefined : contract.schemaAt(media.schemaPointer);
  const walked = new Map<Schema, Set<string>>();
  const walk = (node: Schema | undefined, name: string): void => {
    const schema = contract.schema(node);
    if (!schema) return;
    const seen = walked.get(schema) ?? new Set<string>();
    if (seen.has(name)) return;
    walked.set(schema, seen.add(name));
    for (const alternative of schema.oneOf ?? []) walk(alternative, name);
    walk(schema.items, name);
    for (const [key, value] of Object.entries(schema.properties ?? {})) {
      if (key === 'id') names.add(singular(name));
      else if (key.endsWith('_id')) names.add(key.replace(/_id$/, ''));
      else walk(value, key === 'items' || key === 'data' ? name : key);
    }
  };
  walk(contract.schema(root)?.properties?.data, lastSegment(op.path));
  return names;
}

function add(map: Map<string, string[]>, key: string, value: unknown): void {
  if (typeof value !== 'string' || !UUID.test(value)) return;
  const list = map.get(key) ?? [];
  if (!list.includes(value)) list.push(value);
  map.set(key, list);
}

function lastSegment(path: string): string {
  return path.split('/').filter((s) => s !== '' && !s.startsWith('{')).at(-1) ?? '';
}

/** `prompts` → `prompt`, `categories` → `category`, `brand-voice` → `brand_voice`. */
function singular(name: string): string {
  const snake = name.replace(/-/g, '_');
  if (snake.endsWith('ies')) return `${snake.slice(0, -3)}y`;
  return snake.endsWith('s') && !snake.endsWith('ss') ? snake.slice(0, -1) : snake;
}
