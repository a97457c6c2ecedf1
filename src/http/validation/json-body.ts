import zlib from 'node:zlib';
import express, { type Request, type RequestHandler } from 'express';
import { ServiceError } from '../../errors/service-error.js';
import { matchedOperation } from '../request-context.js';

/** The content codings the JSON parser can undo in this Node build, as sent in `Accept-Encoding` with a 415. */
const ACCEPTED_BODY_CODINGS = ['gzip', 'deflate', 'br', ...('createZstdDecompress' in zlib ? ['zstd'] : [])].join(', ');

// A body that cannot be read at all: 422 naming the body in `data.errors`.
const invalidBody = (problem: string): ServiceError => ServiceError.invalidBody(problem.replace(/\.$/, ''));

/** 415 (4150): the body is in a coding, media type or charset the service does not read. */
export function unsupportedBody(message: string): ServiceError {
  return new ServiceError('UNSUPPORTED_MEDIA_TYPE', message, null, { 'Accept-Encoding': ACCEPTED_BODY_CODINGS });
}

/**
 * Every failure of the JSON parser is about the body the client sent, never an internal error:
 * body-parser reports a corrupt gzip, deflate or br stream as a bare zlib error, which would
 * otherwise reach the error handler as an unknown error (a 500). The input is never echoed.
 */
function bodyError(err: unknown, req: Request, limit: string): ServiceError {
  const type = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
  switch (type) {
    case 'encoding.unsupported':
      return unsupportedBody(`Unsupported Content-Encoding: send the body uncompressed or as ${ACCEPTED_BODY_CODINGS}.`);
    case 'charset.unsupported':
      return unsupportedBody('Unsupported charset: send the body as UTF-8 JSON.');
    case 'entity.too.large':
      return invalidBody(`larger than ${limit.replace(/kb$/i, ' KB')}.`);
    case 'entity.parse.failed':
      return invalidBody('not valid JSON.');
    default: {
      // Only codings the parser supports get this far, so naming the coding echoes nothing.
      const coding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
      return invalidBody(coding === 'identity' ? 'it could not be read in full.' : `it is not valid ${coding} data.`);
    }
  }
}

/**
 * `express.json`, with every refusal turned into the envelope's 415 or 422, for the operations whose
 * contract has a `requestBody`. A body sent to any other operation is not read at all, so its
 * encoding or its bytes cannot earn a status that operation does not document.
 */
export function parseJsonBody(options: { limit: string }): RequestHandler {
  const parse = express.json({ limit: options.limit });
  return (req, res, next) => {
    if (matchedOperation(res)?.operation.takesBody !== true) {
      next();
      return;
    }
    parse(req, res, (err?: unknown) => {
      if (err === undefined || err === null) next();
      else next(bodyError(err, req, options.limit));
    });
  };
}
