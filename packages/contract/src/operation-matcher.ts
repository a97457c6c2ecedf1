import { HTTP_METHODS } from './documents.js';
import type { ContractOperation } from './contract-operations.js';

/** What the matcher found for a request: an operation, a path without this method, or nothing. */
export type RouteMatch =
  | OperationMatch
  | { kind: 'method-not-allowed'; /** The path's methods, in path-item order. */ allow: readonly string[] }
  | { kind: 'none' };

export interface OperationMatch {
  kind: 'operation';
  operation: ContractOperation;
  /** Path parameters by name, percent-decoded. */
  params: Readonly<Record<string, string>>;
  /** Parameters whose value is not valid percent-encoding (kept raw in `params`). */
  undecodable: readonly string[];
}

/** The end of one path of the contract: its parameter names in order and its operations by method. */
interface Route {
  path: string;
  names: string[];
  byMethod: Map<string, ContractOperation>;
  allow: string[];
}

/** One segment position of the contract's paths: literal segments by exact text, one parameter branch. */
interface Node {
  literals: Map<string, Node>;
  param?: Node;
  route?: Route;
}

const newNode = (): Node => ({ literals: new Map() });
const PARAMETER = /^\{([^{}/]+)\}$/;
const METHOD_ORDER: readonly string[] = HTTP_METHODS.map((m) => m.toUpperCase());

/**
 * Matches a request to an operation of the contract by the one rule the whole service uses: the path
 * must be written exactly as the contract writes it. Literal segments compare as raw text (letter
 * case counts and `%76` is not `v`), every segment must be non-empty (no `//`, no trailing `/`), and
 * a literal segment wins over a parameter at the same place (`/webhooks/events` is not a webhook id).
 * Built once from the compiled operations; a request costs one walk down a tree of segments.
 */
export class OperationMatcher {
  private readonly root = newNode();

  constructor(operations: readonly ContractOperation[]) {
    for (const operation of operations) this.add(operation);
    // HEAD is answered wherever GET is (src/http/head-requests.ts), though the contract lists no
    // HEAD operation (its `x-head-for-every-get` says so once), so `Allow` names it beside GET.
    for (const route of this.routes(this.root)) {
      const methods = [...route.byMethod.keys()];
      if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
      route.allow = methods.sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b));
    }
  }

  match(method: string, path: string): RouteMatch {
    if (!path.startsWith('/')) return { kind: 'none' };
    const values: string[] = [];
    const route = this.walk(this.root, path.slice(1).split('/'), 0, values);
    if (!route) return { kind: 'none' };
    const operation = route.byMethod.get(method);
    if (!operation) return { kind: 'method-not-allowed', allow: route.allow };
    const params: Record<string, string> = {};
    const undecodable: string[] = [];
    route.names.forEach((name, i) => {
      const raw = values[i]!;
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = raw;
        undecodable.push(name);
      }
    });
    return { kind: 'operation', operation, params, undecodable };
  }

  private add(operation: ContractOperation): void {
    let node = this.root;
    const names: string[] = [];
    for (const segment of operation.path.slice(1).split('/')) {
      const parameter = PARAMETER.exec(segment);
      if (parameter) {
        names.push(parameter[1]!);
        node = node.param ??= newNode();
        continue;
      }
      if (segment === '' || /[{}]/.test(segment)) throw new Error(`${operation.path}: each segment is either literal text or one whole {parameter}`);
      let next = node.literals.get(segment);
      if (!next) node.literals.set(segment, (next = newNode()));
      node = next;
    }
    const route = node.route ??= { path: operation.path, names, byMethod: new Map(), allow: [] };
    if (route.path !== operation.path) throw new Error(`${operation.path} and ${route.path} are the same path with other parameter names`);
    if (route.byMethod.has(operation.method)) throw new Error(`${operation.method} ${operation.path} is declared twice`);
    route.byMethod.set(operation.method, operation);
  }

  /** Depth first, literal before parameter, backing out of a branch that leads nowhere. */
  private walk(node: Node, segments: string[], index: number, values: string[]): Route | undefined {
    if (index === segments.length) return node.route;
    const segment = segments[index]!;
    if (segment === '') return undefined;
    const literal = node.literals.get(segment);
    const viaLiteral = literal && this.walk(literal, segments, index + 1, values);
    if (viaLiteral) return viaLiteral;
    if (!node.param) return undefined;
    values.push(segment);
    const viaParam = this.walk(node.param, segments, index + 1, values);
    if (!viaParam) values.pop();
    return viaParam;
  }

  private *routes(node: Node): Generator<Route> {
    if (node.route) yield node.route;
    for (const child of node.literals.values()) yield* this.routes(child);
    if (node.param) yield* this.routes(node.param);
  }
}
