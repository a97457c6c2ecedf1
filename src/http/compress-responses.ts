import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/** Bodies smaller than this gain little from compression and cost CPU on both sides. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

// compressible's database does not list NDJSON; it is text as much as JSON and CSV are.
const NDJSON = /^application\/x-ndjson\b/i;

function worthCompressing(req: Request, res: Response): boolean {
  return NDJSON.test(String(res.getHeader('Content-Type') ?? '')) || compression.filter(req, res);
}

/**
 * gzip or br by `Accept-Encoding` (br preferred when both are accepted), for bodies of at least
 * 1 KiB and for every streamed download, whose length is not known when it starts. Streams stay
 * streams: `write` compresses as it goes and `end` flushes the rest. Adds `Vary: Accept-Encoding`.
 */
export function compressResponses(): RequestHandler {
  const compress = compression({ threshold: COMPRESSION_THRESHOLD_BYTES, filter: worthCompressing });
  return (req, res, next) => {
    if (req.headers['accept-encoding'] !== undefined) {
      compress(req, res, next);
      return;
    }
    // A client that sends no Accept-Encoding gets every answer as it is. All the compression
    // middleware would still do is name the header in Vary (its hooks on the response cost a
    // large part of a small request: bench/README.md, "The stack's cost"); every answer here is
    // of a type it would name it for.
    res.vary('Accept-Encoding');
    next();
  };
}
