import type { NextFunction, Request, Response } from 'express';

interface Parameter { $ref?: string; name?: string; in?: string; allowEmptyValue?: boolean }
interface ValidationIssue { path: string; message: string; errorCode?: string }
type OpenApiRequest = Request & { openapi?: { openApiRoute?: string } };

/** A 400 shaped like the validator's own, so the error middleware names every parameter in one 422. */
class QueryParameterError extends Error {
  readonly status = 400;
  constructor(readonly errors: ValidationIssue[]) {
    super('invalid query parameters');
  }
}

function resolve(document: Record<string, unknown>, node: Parameter): Parameter {
  let current = node;
  for (let depth = 0; current.$ref?.startsWith('#/') && depth < 10; depth++) {
    let target: unknown = document;
    for (const key of current.$ref.slice(2).split('/')) target = (target as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')];
    current = (target ?? {}) as Parameter;
  }
  return current;
}

/** `"GET /api/v1/x/{id}"` → the query parameters it documents, with whether each may be empty. */
function queryParametersByRoute(document: Record<string, unknown>): Map<string, Map<string, boolean>> {
  const byRoute = new Map<string, Map<string, boolean>>();
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const [route, item] of Object.entries(paths)) {
    const shared = ((item.parameters ?? []) as Parameter[]).map((p) => resolve(document, p));
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters' || typeof op !== 'object' || op === null) continue;
      const own = (((op as { parameters?: Parameter[] }).parameters) ?? []).map((p) => resolve(document, p));
      const query = new Map<string, boolean>();
      for (const p of [...shared, ...own]) if (p.in === 'query' && p.name) query.set(p.name, p.allowEmptyValue === true);
      byRoute.set(`${method.toUpperCase()} ${route}`, query);
    }
  }
  return byRoute;
}

function queryIssues(known: Map<string, boolean>, query: Record<string, unknown>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(query)) {
    const allowEmpty = known.get(name);
    if (allowEmpty === undefined) issues.push({ path: `/query/${name}`, message: `Unknown query parameter '${name}'` });
    else if (value === '' && !allowEmpty) issues.push({ path: `/query/${name}`, message: 'must not be empty' });
  }
  return issues;
}

/**
 * Unknown and empty query parameters, reported together with every bad value. The validator
 * library stops at the first unknown parameter and skips value checks when it finds one, so it
 * runs with unknown parameters allowed and these two middlewares complete its report: one after a
 * request it accepted, one merging into the 400 it raised. Mounted after the validator, whose
 * route matching sets `req.openapi`.
 */
export function rejectUnknownQueryParameters(document: object) {
  const byRoute = queryParametersByRoute(document as Record<string, unknown>);
  const issuesOf = (req: OpenApiRequest): ValidationIssue[] => {
    const route = req.openapi?.openApiRoute;
    const known = route === undefined ? undefined : byRoute.get(`${req.method} ${route}`);
    // The raw query string, not req.query: the validator has already coerced and defaulted req.query.
    return known ? queryIssues(known, Object.fromEntries(new URL(req.originalUrl, 'http://x').searchParams)) : [];
  };
  return [
    (req: Request, _res: Response, next: NextFunction): void => {
      const issues = issuesOf(req);
      next(issues.length > 0 ? new QueryParameterError(issues) : undefined);
    },
    (err: unknown, req: Request, _res: Response, next: NextFunction): void => {
      const validatorError = err as { status?: unknown; errors?: unknown };
      if (validatorError?.status === 400 && Array.isArray(validatorError.errors)) {
        validatorError.errors.unshift(...issuesOf(req));
      }
      next(err);
    },
  ];
}
