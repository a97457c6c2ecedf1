import type { NextFunction, Request, Response } from 'express';
import { parametersByOperation, type ContractParameter } from '@workspace-read-api/contract/contract-parameters.js';
import { parseDecimalInteger } from '../../text/decimal-integer.js';
import { parseDecimalNumber } from '../../text/decimal-number.js';
import { matchedOperation } from '../request-context.js';
import { rawQuery } from './raw-query.js';

interface ValidationIssue { path: string; message: string }

/** A 400 shaped like the validator's own, so the error middleware names every parameter in one 422. */
class NumericParameterError extends Error {
  readonly status = 400;
  constructor(readonly errors: ValidationIssue[]) {
    super('invalid numeric query parameters');
  }
}

function asError(issues: ValidationIssue[]): NumericParameterError | undefined {
  return issues.length > 0 ? new NumericParameterError(issues) : undefined;
}

/** Into a 400 raised before (the validator's, or another check's), in place of its findings on the same parameters. */
function mergeInto(err: unknown, issuesOf: () => ValidationIssue[]): unknown {
  const raised = err as { status?: unknown; errors?: unknown };
  if (err instanceof NumericParameterError || raised?.status !== 400 || !Array.isArray(raised.errors)) return err;
  const issues = issuesOf();
  const named = new Set(issues.map((issue) => issue.path));
  const others = (raised.errors as ValidationIssue[]).filter((e) => !named.has(e.path));
  raised.errors.splice(0, raised.errors.length, ...others, ...issues);
  return err;
}

function rangeText(schema: ContractParameter['schema']): string {
  const { minimum, maximum } = schema;
  if (minimum !== undefined && maximum !== undefined) return ` from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return ` of at least ${minimum}`;
  if (maximum !== undefined) return ` of at most ${maximum}`;
  return '';
}

/** `strictly between 0 and 1`, `of more than 0`... for a number's exclusive bounds. */
function exclusiveRangeText(schema: ContractParameter['schema']): string {
  const { exclusiveMinimum: low, exclusiveMaximum: high } = schema;
  if (low !== undefined && high !== undefined) return ` strictly between ${low} and ${high}`;
  if (low !== undefined) return ` of more than ${low}`;
  if (high !== undefined) return ` of less than ${high}`;
  return '';
}

function within(value: number, schema: ContractParameter['schema']): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  return (minimum === undefined || value >= minimum) && (maximum === undefined || value <= maximum)
    && (exclusiveMinimum === undefined || value > exclusiveMinimum) && (exclusiveMaximum === undefined || value < exclusiveMaximum);
}

/** What is wrong with one raw value of an integer or number parameter, as the 422 says it; undefined when nothing is. */
export function numericParameterProblem(parameter: Pick<ContractParameter, 'schema'>, raw: string): string | undefined {
  if (parameter.schema.type === 'number') {
    const value = parseDecimalNumber(raw);
    return value !== undefined && within(value, parameter.schema)
      ? undefined
      : `must be a finite decimal number${rangeText(parameter.schema)}${exclusiveRangeText(parameter.schema)}`;
  }
  const value = parseDecimalInteger(raw);
  return value !== undefined && within(value, parameter.schema) ? undefined : `must be a whole number${rangeText(parameter.schema)} in plain decimal digits`;
}

/** `"GET /api/v1/x"` → its query parameters the contract types `integer` or `number`. */
export function numericQueryParameters(document: object): Map<string, ContractParameter[]> {
  const byRoute = new Map<string, ContractParameter[]>();
  for (const [operation, parameters] of parametersByOperation(document)) {
    const integers = parameters.filter((p) => p.in === 'query' && (p.schema.type === 'integer' || p.schema.type === 'number'));
    if (integers.length > 0) byRoute.set(operation, integers);
  }
  return byRoute;
}

/**
 * Integers in a query are plain decimal digits within the documented range, and numbers finite
 * decimals within theirs (`1e309`, `-1e309`, `Infinity` and `NaN` are 422, not infinities). The validator coerces
 * with `Number()` semantics (`0x10`, `1e1`, ` 5` pass; `Infinity` and `1e400` reach the handler as
 * Infinity), so the raw query string is checked here, for exactly the parameters the contract
 * types `integer`, of the operation the request's one route match found (src/http/route-match.ts).
 * Mounted after the validator: one middleware after a request it accepted, one replacing its own
 * findings on those parameters in the 400 it raised (so each is named once).
 */
export function rejectNonDecimalNumbers(document: object) {
  const byRoute = numericQueryParameters(document);
  const issuesOf = (req: Request, res: Response): ValidationIssue[] => {
    const operation = matchedOperation(res)?.operation;
    const integers = operation === undefined ? undefined : byRoute.get(`${operation.method} ${operation.path}`);
    if (!integers) return [];
    const query = rawQuery(req, res);
    const issues: ValidationIssue[] = [];
    for (const parameter of integers) {
      // An empty value is reported as empty by rejectUnknownQueryParameters.
      const problem = query.getAll(parameter.name).filter((raw) => raw !== '').map((raw) => numericParameterProblem(parameter, raw)).find(Boolean);
      if (problem) issues.push({ path: `/query/${parameter.name}`, message: problem });
    }
    return issues;
  };
  return [
    (req: Request, res: Response, next: NextFunction): void => next(asError(issuesOf(req, res))),
    (err: unknown, req: Request, res: Response, next: NextFunction): void => next(mergeInto(err, () => issuesOf(req, res))),
  ];
}
