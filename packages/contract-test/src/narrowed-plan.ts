import { namesAnswered } from './id-discovery.js';
import type { OpenApiContract, Operation } from './openapi-contract.js';
import { enumeratedValues } from './parameter-values.js';
import { pathParameters, queryParameters } from './read-cases.js';
import { READ_METHODS } from './markers.js';

/**
 * The reads a run narrowed by `--operations` sends while it discovers ids, instead of every list:
 * the named reads; the GET of each named HEAD (the answer the HEAD is held to); the reads whose
 * links lead to a named operation; for each path parameter (but an enumerated one) the list it
 * names an item of with the reads whose links lead below it, else the reads whose documented answer
 * carries an id under the parameter's name (`namesAnswered`, the rules the id pool files ids by;
 * those taking no path parameter when there are any, since they need no id to be read); for each
 * UUID filter the reads answering an id of its name; and for each of those reads,
 * in turn, what its own path needs. `also` are planned whatever is named: the read that tells the
 * run who its key is, and the reads answering the ids the writes start from (`workspace_id`).
 */
export function plannedReads(contract: OpenApiContract, named: readonly string[], also: { reads: readonly Operation[]; idNames: readonly string[] }): Set<Operation> {
  const isRead = (op: Operation) => READ_METHODS.includes(op.method);
  const answered = new Map<Operation, Set<string>>();
  const providers = (name: string): Operation[] => {
    const all = contract.operations.filter((op) => {
      if (op.method !== 'GET') return false;
      if (!answered.has(op)) answered.set(op, namesAnswered(contract, op));
      return answered.get(op)!.has(name) || answered.get(op)!.has(name.replace(/_id$/, ''));
    });
    const direct = all.filter((op) => pathParameters(op).length === 0);
    return direct.length > 0 ? direct : all;
  };
  const linkedFrom = (target: string) => contract.operations.filter((op) => isRead(op) && op.links.some((l) => l.operationId === target));

  const sourcesOf = (op: Operation): Operation[] => {
    const twin = op.method === 'HEAD' ? contract.operations.find((o) => o.path === op.path && o.method === 'GET') : undefined;
    const sources = [...(twin ? [twin] : []), ...linkedFrom((twin ?? op).operationId)];
    for (const param of pathParameters(op)) {
      if ((enumeratedValues(contract.schema(param.schema) ?? {}) ?? []).length > 0) continue;
      const listPath = op.path.slice(0, op.path.indexOf(`/{${param.name}}`));
      const list = contract.operations.find((o) => o.method === 'GET' && o.path === listPath);
      if (list) {
        const below = `${listPath}/{${param.name}}`;
        sources.push(list, ...contract.operations.filter((o) => o.path.startsWith(below)).flatMap((o) => linkedFrom(o.operationId)));
      } else {
        sources.push(...providers(param.name));
      }
    }
    for (const param of queryParameters(op)) {
      if (contract.schema(param.schema)?.format === 'uuid') sources.push(...providers(param.name));
    }
    return sources;
  };

  const planned = new Set<Operation>();
  const visited = new Set<Operation>();
  const visit = (op: Operation | undefined): void => {
    if (!op || visited.has(op)) return;
    visited.add(op);
    if (isRead(op)) planned.add(op);
    for (const source of sourcesOf(op)) visit(source);
  };
  for (const operationId of named) visit(contract.operation(operationId));
  for (const op of also.reads) visit(op);
  for (const name of also.idNames) for (const op of providers(name)) visit(op);
  return planned;
}
