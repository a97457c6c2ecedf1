import { hash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { dayOf } from '../analytics/periods.js';
import type { Store } from '../store/index.js';
import { getApiKeyCaller, matchedOperation } from './request-context.js';

/** Reads are per caller and change with every import: keep them private and revalidate each time. */
const READ_CACHE_CONTROL = 'private, no-cache';
/** What a read's answer depends on besides the URL: the key (either header) and the encoding. */
const READ_VARY = ['Authorization', 'X-API-KEY', 'Accept-Encoding'];
const READ_VARY_HEADER = READ_VARY.join(', ');

const JSON_TYPE = /^application\/json\b/i;

/**
 * Whether `If-None-Match` names `etag`, compared weakly (RFC 9110 §13.1.2). Unlike Express's
 * `req.fresh`, a request's `Cache-Control: no-cache` does not prevent the match: that directive is
 * addressed to caches, and `fetch` adds it to every request that sets `If-None-Match` by hand.
 */
function ifNoneMatchMatches(req: Request, etag: string): boolean {
  const header = req.get('If-None-Match');
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

const NUL = Buffer.from([0]);

/** A weak ETag of the parts, each ended by a NUL; hashed in one call, as it is on every JSON read. */
function weakTag(...parts: Array<string | Buffer>): string {
  const data = parts.every((part) => typeof part === 'string')
    ? parts.map((part) => `${part}\u0000`).join('')
    : Buffer.concat(parts.flatMap((part) => [Buffer.from(part), NUL]));
  return `W/"${hash('sha1', data, 'base64url')}"`;
}

/**
 * Conditional JSON reads. Every GET (and so HEAD) under /api says how it may be cached
 * (`Cache-Control`, `Vary`); a 200 JSON answer gets a weak ETag made from its bytes, and a
 * matching `If-None-Match` turns it into a 304 where the operation documents one, which Express's `res.send` sends without the body
 * or its type and length, keeping the other headers (ETag, RateLimit: the request was counted).
 */
export function conditionalJsonReads(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET') {
      next();
      return;
    }
    res.set('Cache-Control', READ_CACHE_CONTROL);
    // Before this only the encoding can have been named (src/http/compress-responses.ts).
    res.setHeader('Vary', READ_VARY_HEADER);
    // The 304 is decided here alone. Express's `res.send` would otherwise turn any 200 into a 304
    // when its `req.fresh` holds, and that holds for `If-None-Match: *` on every operation,
    // including those whose contract documents no 304 (the usage).
    Object.defineProperty(req, 'fresh', { value: false, configurable: true });
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      const bytes = typeof body === 'string' || Buffer.isBuffer(body) ? body : undefined;
      if (bytes !== undefined && res.statusCode === 200 && !res.get('ETag') && JSON_TYPE.test(res.get('Content-Type') ?? '')) {
        const etag = weakTag(bytes);
        res.set('ETag', etag);
        // An operation whose contract documents no 304 (the usage, which counts the request
        // itself) keeps its 200 whatever `If-None-Match` says, `*` included.
        if (matchedOperation(res)?.operation.answersNotModified === true && ifNoneMatchMatches(req, etag)) res.status(304);
      }
      return send(body);
    };
    next();
  };
}

type Responses = Record<string, { content?: Record<string, unknown> }>;

/** Operations whose success is a file rather than JSON (the exports), from the contract. */
function downloadOperationIds(document: object): Set<string> {
  const ids = new Set<string>();
  const paths = (document as { paths?: Record<string, { get?: { operationId?: string; responses?: Responses } }> }).paths ?? {};
  for (const item of Object.values(paths)) {
    const op = item.get;
    const media = Object.keys(op?.responses?.['200']?.content ?? {});
    if (op?.operationId && media.length > 0 && !media.includes('application/json')) ids.add(op.operationId);
  }
  return ids;
}

/** The validated query with its defaults, keys sorted: equal queries give equal text. */
function canonicalQuery(query: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(query).sort().map((name) => [name, query[name]]));
}

/**
 * Conditional downloads, decided before the file is read: the tag is made from the workspace's
 * data version (raised by every import that changes a record), the UTC day (a range ends today)
 * and the validated query, never from the body. A matching `If-None-Match` answers 304 at once.
 * Mounted after request validation, which applies the defaults; the operation is the request's one
 * route match (src/http/route-match.ts).
 */
export function conditionalDownloads(deps: { document: object; store: Store; now: () => Date }): RequestHandler {
  const downloads = downloadOperationIds(deps.document);
  return async (req: Request, res: Response, next) => {
    const operationId = matchedOperation(res)?.operation.operationId;
    if (req.method !== 'GET' || operationId === undefined || !downloads.has(operationId)) {
      next();
      return;
    }
    const workspaceId = getApiKeyCaller(res).principal.workspace_id;
    const version = await deps.store.dataVersions.get(workspaceId);
    const day = dayOf(deps.now().getTime());
    const etag = weakTag(workspaceId, String(version), String(day), operationId, canonicalQuery(req.query));
    res.set('ETag', etag);
    if (ifNoneMatchMatches(req, etag)) {
      res.status(304).end();
      return;
    }
    next();
  };
}
