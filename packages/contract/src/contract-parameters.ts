import { HTTP_METHODS } from './documents.js';
import { followRefs } from './json-pointer.js';
import { perContract } from './per-contract.js';

/** A parameter of the bundled contract, with `$ref`s resolved. */
export interface ContractParameter {
  name: string;
  in: string;
  /** Whether it may be sent empty (`?q=`). */
  allowEmptyValue: boolean;
  schema: { type?: unknown; format?: string; minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number };
  /**
   * The value it takes when a request leaves it out: its schema's `default`, written beside the
   * schema's `$ref` (a default of this parameter only) or in the schema it names.
   */
  default: unknown;
}

type Node = Record<string, unknown>;

function resolve(document: Node, node: unknown): Node {
  return (followRefs(document, node ?? {}, '', 10).node ?? {}) as Node;
}

/**
 * `"GET /api/v1/x/{id}"` → every parameter the operation documents (its own and its path item's).
 * Read once per contract in a process (per-contract.ts): callers never change what it returns.
 */
export const parametersByOperation: (document: object) => ReadonlyMap<string, readonly ContractParameter[]> = perContract(parametersOf);

function parametersOf(document: object): Map<string, ContractParameter[]> {
  const doc = document as Node;
  const byOperation = new Map<string, ContractParameter[]>();
  for (const [route, item] of Object.entries((doc.paths ?? {}) as Record<string, Node>)) {
    const shared = ((item.parameters ?? []) as unknown[]).map((p) => resolve(doc, p));
    for (const [method, op] of Object.entries(item)) {
      if (!(HTTP_METHODS as readonly string[]).includes(method)) continue;
      const own = (((op as Node).parameters ?? []) as unknown[]).map((p) => resolve(doc, p));
      byOperation.set(`${method.toUpperCase()} ${route}`, [...shared, ...own].map((p) => ({
        name: String(p.name),
        in: String(p.in),
        allowEmptyValue: p.allowEmptyValue === true,
        schema: resolve(doc, p.schema),
        default: (p.schema as Node | undefined)?.default ?? resolve(doc, p.schema).default,
      })));
    }
  }
  return byOperation;
}
