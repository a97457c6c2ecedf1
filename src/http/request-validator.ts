import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types.js';
import { rejectUnknownQueryParameters } from './query-parameters.js';
import { rejectNonDecimalIntegers } from './query-integers.js';

/**
 * Validates every /api request against the bundled contract: unknown query parameters, bad values
 * and malformed UUIDs become 400 HttpErrors, which the error middleware turns into 422 envelopes;
 * unknown routes and methods become 404/405. In tests, responses are validated too, so any drift
 * between a handler and the contract fails loudly.
 */
export function validateAgainstContract(document: object, options: { validateResponses: boolean }): RequestHandler[] {
  const validator = OpenApiValidator.middleware({
    // The validator mutates the document it is given; the served copy must stay untouched.
    apiSpec: structuredClone(document) as OpenAPIV3.DocumentV3_1,
    // Unknown parameters are checked by rejectUnknownQueryParameters, so that one 422 names them
    // all together with every bad value (allErrors), instead of only the first problem found.
    // Query and path values are always coerced by the library; JSON bodies are not (`"5"`, `true`
    // and `null` are not integers).
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, allErrors: true },
    validateResponses: options.validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    ignorePaths: /^(?!\/api\/)/,
    ajvFormats: { mode: 'full' },
  }) as unknown as RequestHandler[];
  return [
    ...validator,
    ...(rejectUnknownQueryParameters(document) as unknown as RequestHandler[]),
    ...(rejectNonDecimalIntegers(document) as unknown as RequestHandler[]),
  ];
}
