import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { matchedOperation } from '../request-context.js';
import { schemaValidatorFor, type SchemaValidator } from '@workspace-read-api/contract/schema-validator.js';
import { documentedResponse, type DocumentedResponse } from '@workspace-read-api/contract/documented-response.js';

/** An answer a handler or the error handler built that the contract does not document. */
class UndocumentedResponseError extends Error {
  constructor(operationId: string, status: number, problems: string[]) {
    super(`the ${status} answer of ${operationId} does not match the contract: ${problems.join('; ')}`);
    this.name = 'UndocumentedResponseError';
  }
}

function problemsOf(documented: DocumentedResponse | undefined, status: number, contentType: string, body: unknown, schemas: SchemaValidator): string[] {
  if (documented === undefined) return [`no response is documented for ${status}`];
  if (documented.media.length === 0) return body === undefined ? [] : [`a body was sent where ${documented.key} documents none`];
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const media = documented.media.find((m) => m.type.toLowerCase() === type);
  if (media === undefined) return [`content-type ${type} is not documented for ${documented.key} (documented: ${documented.media.map((m) => m.type).join(', ')})`];
  return media.schemaPointer === undefined ? [] : schemas.problems(media.schemaPointer, body).map((p) => `body${p.startsWith('/') ? '' : ' '}${p}`);
}

/**
 * Checks every JSON answer of a matched operation (`res.json`, which handlers and the error handler
 * answer through) against the schema the contract documents for its status and content type: the
 * exact status, else its `NXX` range, else `default`. An answer that does not match is not sent:
 * it becomes a 500, and its log line names each problem. Tests turn this on
 * (`AppDeps.validateResponses`), so any drift between a handler and the contract fails loudly.
 *
 * The schemas come from one validator per contract and process (`schema-validator.ts`), which adds
 * the document once and compiles each schema on its first use, the schemas it refers to once for
 * all of them.
 */
export function checkResponsesAgainstContract(document: object): RequestHandler {
  const schemas = schemaValidatorFor(document);
  const documented = new Map<string, DocumentedResponse | undefined>();
  const lookup = (path: string, method: string, status: number): DocumentedResponse | undefined => {
    const key = `${method} ${path} ${status}`;
    if (!documented.has(key)) documented.set(key, documentedResponse(document, path, method, status));
    return documented.get(key);
  };
  return (_req: Request, res: Response, next: NextFunction): void => {
    const match = matchedOperation(res);
    if (match === undefined) {
      next();
      return;
    }
    const send = res.json;
    res.json = function checkedJson(this: Response, body: unknown): Response {
      // One check per answer: the 500 that replaces an answer that failed it is not checked again.
      res.json = send;
      const { operationId, path, method } = match.operation;
      const status = res.statusCode;
      const problems = problemsOf(lookup(path, method.toLowerCase(), status), status, String(res.get('content-type') ?? 'application/json'), body, schemas);
      if (problems.length > 0) throw new UndocumentedResponseError(operationId, status, problems);
      return send.call(this, body);
    };
    next();
  };
}
