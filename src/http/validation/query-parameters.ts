import type { NextFunction, Request, Response } from 'express';
import type { ContractOperation } from '@workspace-read-api/contract/contract-operations.js';
import { matchedOperation } from '../request-context.js';
import { rawQuery } from './raw-query.js';

interface ValidationIssue { path: string; message: string; errorCode?: string }

/** A 400 shaped like the validator's own, so the error middleware names every parameter in one 422. */
class QueryParameterError extends Error {
  readonly status = 400;
  constructor(readonly errors: ValidationIssue[]) {
    super('invalid query parameters');
  }
}

function queryIssues(known: ContractOperation['queryParameters'], query: Record<string, unknown>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(query)) {
    const parameter = known.get(name);
    if (parameter === undefined) issues.push({ path: `/query/${name}`, message: `Unknown query parameter '${name}'` });
    else if (value === '' && !parameter.allowEmpty) issues.push({ path: `/query/${name}`, message: 'must not be empty' });
  }
  return issues;
}

/**
 * Unknown and empty query parameters, reported together with every bad value. The validator
 * library stops at the first unknown parameter and skips value checks when it finds one, so it
 * runs with unknown parameters allowed and these two middlewares complete its report: one after a
 * request it accepted, one merging into the 400 it raised. The parameters are those of the
 * operation the request was matched to (src/http/route-match.ts).
 */
export function rejectUnknownQueryParameters() {
  const issuesOf = (req: Request, res: Response): ValidationIssue[] => {
    const known = matchedOperation(res)?.operation.queryParameters;
    return known ? queryIssues(known, Object.fromEntries(rawQuery(req, res))) : [];
  };
  return [
    (req: Request, res: Response, next: NextFunction): void => {
      const issues = issuesOf(req, res);
      next(issues.length > 0 ? new QueryParameterError(issues) : undefined);
    },
    (err: unknown, req: Request, res: Response, next: NextFunction): void => {
      const validatorError = err as { status?: unknown; errors?: unknown };
      if (validatorError?.status === 400 && Array.isArray(validatorError.errors)) {
        validatorError.errors.unshift(...issuesOf(req, res));
      }
      next(err);
    },
  ];
}
