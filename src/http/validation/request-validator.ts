import * as OpenApiValidator from 'express-openapi-validator';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types.js';
import { rejectUnknownQueryParameters } from './query-parameters.js';
import { rejectNonDecimalNumbers } from './query-numbers.js';
import { refuseNulText } from './refuse-nul-text.js';
import { matchedOperation } from '../request-context.js';
import { perContract } from '@workspace-read-api/contract/per-contract.js';
import { checkResponsesAgainstContract } from './response-check.js';
import { requestContract } from '@workspace-read-api/contract/request-contract.js';

/** What express-openapi-validator records on a request it matched to an operation of the contract. */
interface ValidatedRequest extends Request {
  openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> };
}

/**
 * The validator finds the operation with its own router; it only ever sees requests written exactly
 * as a path of the contract, so it must find the one our matcher found. If it ever did not, the
 * request was checked against another operation's schema: refuse it (500) rather than dispatch it.
 */
function confirmSameOperation(req: Request, res: Response, next: NextFunction): void {
  const validated = (req as ValidatedRequest).openapi?.schema?.operationId;
  const matched = matchedOperation(res)?.operation.operationId;
  next(validated === matched ? undefined : new Error(`the validator matched ${String(validated)}, the matcher ${String(matched)}`));
}

/**
 * Validates every request that names an operation (src/http/route-match.ts refuses the others)
 * against the bundled contract: unknown query parameters, bad values and malformed UUIDs become
 * 400 HttpErrors, which the error middleware turns into 422 envelopes. In tests, answers are
 * checked too (response-check.ts), so any drift between a handler and the contract fails loudly.
 */
export function validateAgainstContract(document: object, options: { validateResponses: boolean }): RequestHandler[] {
  return [
    ...compiledValidators(document),
    ...(options.validateResponses ? [checkResponsesAgainstContract(document)] : []),
    confirmSameOperation,
    ...(rejectUnknownQueryParameters() as unknown as RequestHandler[]),
    ...(rejectNonDecimalNumbers(document) as unknown as RequestHandler[]),
    refuseNulText(),
  ];
}

/**
 * The validator checks the whole contract and compiles each operation's schemas on its first
 * request, each compile a walk of the whole document. That work depends only on the document, so
 * apps built from the same contract in one process share one validator (per-contract.ts). The
 * validator keeps nothing of a request or of an app but its compiled schemas; the one hook it puts
 * on an app (Express path parameters) goes on the first app only, and no app needs it: handlers
 * take path parameters from the matched operation (dispatch.ts), never from Express. Answers are
 * not its job: response-check.ts compiles their schemas without a walk of the document each.
 */
const compiledValidators = perContract((document) => newValidator(document));

/** A step of the validator's middleware; the library names each one (`metadataMiddleware`...). */
type NamedStep = RequestHandler & { name: string };

/** What the validator's metadata step records for an operation, whatever the request's path parameters. */
type OperationMetadata = Record<string, unknown> & { schema?: { operationId?: string } };

function newValidator(document: object): RequestHandler[] {
  const steps = OpenApiValidator.middleware({
    // The validator mutates the document it is given; the served copy must stay untouched. It is
    // given the requests' part of the contract only (request-contract.ts).
    apiSpec: structuredClone(requestContract(document)) as OpenAPIV3.DocumentV3_1,
    // Unknown parameters are checked by rejectUnknownQueryParameters, so that one 422 names them
    // all together with every bad value (allErrors), instead of only the first problem found.
    // Query and path values are always coerced by the library; JSON bodies are not (`"5"`, `true`
    // and `null` are not integers).
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, allErrors: true },
    validateResponses: false,
    validateSecurity: false,
    // The document is the bundled contract, which the spec gate (`npm run spec:lint`: swagger-parser
    // and redocly) validated before codegen bundled it; validating it again against the OpenAPI
    // schema cost each process about half a second of CPU at its first app.
    validateApiSpec: false,
    // The contract takes no multipart bodies.
    fileUploader: false,
    ajvFormats: { mode: 'full' },
  }) as unknown as NamedStep[];
  const step = (name: string): NamedStep => {
    const found = steps.find((s) => s.name === name);
    if (found === undefined) throw new Error(`express-openapi-validator has no ${name} step any more (it has ${steps.map((s) => s.name).join(', ')})`);
    return found;
  };
  // Of the library's steps, only these do work here: `pathParamsMiddleware` puts hooks on Express
  // routes this service does not have, and `securityMiddleware` does nothing with
  // `validateSecurity: false`. Each step waits a promise turn before it starts.
  const validateRequest = step('requestMiddleware');
  return [
    metadataPerOperation(step('metadataMiddleware')),
    // An operation that takes no parameter and no body has nothing to validate (unknown query
    // parameters are refused by rejectUnknownQueryParameters, after this).
    (req, res, next) => {
      if (matchedOperation(res)?.operation.takesInput === false) next();
      else void validateRequest(req, res, next);
    },
  ];
}

/**
 * The validator's metadata step finds the request's operation again by trying a path pattern it
 * compiles anew, per request, for each path of the contract until one matches: a cost that grows
 * with the contract and was the largest single one of a request (bench/README.md, "The stack's
 * cost"). The request has already been matched once (src/http/route-match.ts), and what the step
 * records depends only on the operation, except the path parameters: so the step runs on the
 * first request of each operation, and later requests of that operation get what it recorded,
 * with their own path parameters from the match.
 */
function metadataPerOperation(metadata: RequestHandler): RequestHandler {
  const known = new Map<string, OperationMetadata>();
  return (req: Request, res: Response, next: NextFunction): void => {
    const match = matchedOperation(res);
    const operationId = match?.operation.operationId;
    const recorded = operationId === undefined ? undefined : known.get(operationId);
    if (match !== undefined && recorded !== undefined) {
      const pathParams = { ...match.params };
      (req as ValidatedRequest).openapi = { ...recorded, pathParams };
      req.params = pathParams;
      next();
      return;
    }
    void metadata(req, res, (error?: unknown) => {
      const openapi = (req as ValidatedRequest).openapi as OperationMetadata | undefined;
      // Kept only when the library found the operation the matcher found (confirmSameOperation refuses the rest).
      if (error === undefined && operationId !== undefined && openapi?.schema?.operationId === operationId) {
        const { pathParams: _pathParams, ...rest } = openapi;
        known.set(operationId, rest);
      }
      next(error);
    });
  };
}
