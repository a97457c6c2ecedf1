import type { ErrorRequestHandler, NextFunction, RequestHandler } from 'express';

type Step = RequestHandler | ErrorRequestHandler;

/**
 * Middleware that runs `steps` in order as one Express layer, as Express would run them as layers
 * of their own: a step's `next()` starts the following step, and once a step passes an error
 * (`next(error)`, a throw, a rejected promise) only error-handling steps (four parameters) run,
 * until one of them calls `next()` without it. Whatever is left when the steps run out goes on
 * to the layers after the series. Express pays its routing work (matching the layer's path,
 * trimming and restoring the mount prefix, its `next` bookkeeping) once per layer and request, so
 * the pipeline's fixed runs of steps are grouped (src/app.ts).
 */
export function series(...steps: Step[]): RequestHandler {
  return (req, res, done) => {
    let index = 0;
    const next: NextFunction = (error?: unknown) => {
      for (;;) {
        const step = steps[index];
        index += 1;
        if (step === undefined) {
          done(error);
          return;
        }
        const handlesErrors = step.length === 4;
        if (Boolean(error) !== handlesErrors) continue;
        try {
          const result: unknown = error
            ? (step as ErrorRequestHandler)(error, req, res, next)
            : (step as RequestHandler)(req, res, next);
          if (result instanceof Promise) result.catch((rejection: unknown) => next(rejection ?? new Error('a middleware step rejected without a reason')));
        } catch (thrown) {
          next(thrown);
        }
        return;
      }
    };
    next();
  };
}

/**
 * `step` for requests under one of `prefixes` (the prefix itself, or the prefix and `/...`,
 * letter case included, as the app mounts paths), skipped for the others: a mount path without a
 * layer of its own. Unlike an Express mount it leaves `req.url`, `req.path` and `req.baseUrl`
 * as they are (Express rewrites them going in and out of a mount, and parses the URL again each time).
 */
export function under(prefixes: string | readonly string[], step: RequestHandler): RequestHandler {
  const matches = pathsUnder(prefixes);
  return (req, res, next) => (matches(req.path) ? step(req, res, next) : next());
}

/** `step` for requests outside all of `prefixes` (by the rule of `under`), skipped for the others. */
export function exceptUnder(prefixes: string | readonly string[], step: RequestHandler): RequestHandler {
  const matches = pathsUnder(prefixes);
  return (req, res, next) => (matches(req.path) ? next() : step(req, res, next));
}

function pathsUnder(prefixes: string | readonly string[]): (path: string) => boolean {
  const list = typeof prefixes === 'string' ? [prefixes] : prefixes;
  return (path) => list.some((prefix) => path === prefix || (path.startsWith(prefix) && path[prefix.length] === '/'));
}
