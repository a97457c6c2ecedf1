import { nodeAt } from '@workspace-read-api/contract/json-pointer.js';
import type { ObservedResponse, OutgoingRequest } from './http-exchange.js';
import type { Operation } from './openapi-contract.js';

/** The values of a templated path's parameters in a concrete path (`/a/{x}` and `/a/b` → `{x: 'b'}`); empty when it does not match. */
export function pathValuesOf(template: string, path: string): Record<string, string> {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${pattern}$`).exec(path);
  if (!match) return {};
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
}

/**
 * One runtime expression of a link over the exchange that answered it: `$response.body#/pointer`,
 * `$request.path.name`, `$request.query.name`, `$response.header.name`; any other value is a
 * constant. Undefined when the answer does not hold it (an empty list has no `items/0`).
 */
function resolveExpression(expression: unknown, op: Operation, request: OutgoingRequest, response: ObservedResponse): string | undefined {
  if (typeof expression !== 'string') return expression === undefined || expression === null ? undefined : JSON.stringify(expression);
  if (!expression.startsWith('$')) return expression;
  const [source, rest = ''] = expression.split(/\.(.*)/s);
  let value: unknown;
  if (source === '$response' && rest.startsWith('body')) value = nodeAt(response.json, rest.slice('body'.length) || '#');
  else if (source === '$response' && rest.startsWith('header.')) value = response.headers.get(rest.slice('header.'.length)) ?? undefined;
  else if (source === '$request' && rest.startsWith('path.')) value = pathValuesOf(op.path, request.path)[rest.slice('path.'.length)];
  else if (source === '$request' && rest.startsWith('query.')) value = request.query.find(([name]) => name === rest.slice('query.'.length))?.[1];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/**
 * The path values each link of the answered response gives its target operation, by target
 * operationId; a link whose expressions the answer does not hold gives nothing.
 */
export function followLinks(op: Operation, request: OutgoingRequest, response: ObservedResponse): Map<string, Record<string, string>> {
  const followed = new Map<string, Record<string, string>>();
  for (const link of op.links.filter((l) => l.status === String(response.status))) {
    const values: Record<string, string> = {};
    let complete = true;
    for (const [name, expression] of Object.entries(link.parameters)) {
      const value = resolveExpression(expression, op, request, response);
      if (value === undefined) complete = false;
      else values[name.replace(/^path\./, '')] = value;
    }
    if (complete) followed.set(link.operationId, values);
  }
  return followed;
}

/**
 * Path values for operations that are the target of a link, gathered from every answer of the run
 * in the order they came: a read by id takes the ids its list's link resolved, not ids guessed
 * from names.
 */
export class LinkPool {
  private readonly byTarget = new Map<string, Array<Record<string, string>>>();

  constructor(private readonly targets: ReadonlySet<string>) {}

  /** Whether some link of the contract leads to the operation (then only links feed its path). */
  isTarget(operationId: string): boolean {
    return this.targets.has(operationId);
  }

  file(op: Operation, request: OutgoingRequest, response: ObservedResponse): void {
    for (const [target, values] of followLinks(op, request, response)) {
      const sets = this.byTarget.get(target) ?? [];
      if (!sets.some((s) => JSON.stringify(s) === JSON.stringify(values))) sets.push(values);
      this.byTarget.set(target, sets);
    }
  }

  /** The path value sets links gave the operation so far. */
  valuesFor(operationId: string): Array<Record<string, string>> {
    return this.byTarget.get(operationId) ?? [];
  }
}
