import { describe, expect, it } from 'vitest';
import { deriveOperationParts } from '../../scripts/operation-derivation.mjs';

// The parts of an operation the bundle adds by rule (openapi/README.md, "What a path file leaves
// out"), on path items written as a path file would be.
type Doc = Record<string, any>;

const schemes = { BearerAuth: { 'x-credential': 'api_key' }, ApiKeyHeader: { 'x-credential': 'api_key' }, MemberToken: { 'x-credential': 'member_token' } };
/** A `$ref` written the way the bundle resolves it from a path file. */
const ref = (kind: string, name: string) => ({ $ref: `../components/${kind}/${name}.yaml` });
const refName = (node: Doc | undefined) => (node?.$ref as string | undefined)?.replace(/^.*\/(\w+)\.yaml$/, '$1');
const statuses = (op: Doc) => Object.fromEntries(Object.entries(op.responses as Doc).map(([status, r]) => [status, refName(r as Doc) ?? 'written']));

const read = (scopes: string[], extra: Doc = {}): Doc => ({
  get: {
    operationId: 'getThing',
    summary: 'Get a thing',
    description: 'The thing.',
    tags: ['Things'],
    security: [{ BearerAuth: scopes }, { ApiKeyHeader: scopes }],
    parameters: [ref('parameters', 'ThingId')],
    ...extra,
    responses: { 200: { description: 'The thing.', content: { 'application/json': { schema: ref('schemas', 'ThingEnvelope') } } }, 404: ref('responses', 'NotFound') },
  },
});

describe('deriveOperationParts', () => {
  it('gives a scoped read its headers, 304 and refusals, in status order, and no HEAD operation', () => {
    const item = read(['content:read']);
    expect(deriveOperationParts(item, { ref, schemes })).toEqual([]);
    expect(statuses(item.get)).toEqual({
      200: 'written', 304: 'NotModified', 401: 'Unauthorized', 402: 'PaymentRequired', 403: 'Forbidden', 404: 'NotFound',
      405: 'MethodNotAllowed', 422: 'UnprocessableEntity', 429: 'TooManyRequests', 500: 'InternalError', 503: 'ServiceUnavailable',
    });
    expect(Object.keys(item.get.responses['200'])).toEqual(['description', 'headers', 'content']);
    expect(Object.keys(item.get.responses['200'].headers)).toEqual(['RateLimit-Policy', 'RateLimit', 'X-Request-Id', 'X-Content-Type-Options', 'ETag', 'Cache-Control', 'Vary']);
    // HEAD is the service's for every GET (the document's x-head-for-every-get), never an operation.
    expect(item.head).toBeUndefined();
  });

  it('leaves out 403 where any key will do, 402 where the read is exempt, 304 where it is not conditional', () => {
    const item = read([], { 'x-subscription-exempt': true, 'x-conditional': false });
    expect(deriveOperationParts(item, { ref, schemes })).toEqual([]);
    expect(Object.keys(item.get.responses)).toEqual(['200', '401', '404', '405', '422', '429', '500', '503']);
  });

  it('gives an administration write the administration API\'s refusals, 415 for its body, no 304 and no HEAD', () => {
    const item: Doc = {
      post: {
        operationId: 'createThing',
        security: [{ MemberToken: ['owner'] }],
        requestBody: { content: { 'application/json': { schema: ref('schemas', 'CreateThingRequest') } } },
        responses: { 201: { description: 'Created.' }, 404: ref('responses', 'NotFound') },
      },
    };
    expect(deriveOperationParts(item, { ref, schemes })).toEqual([]);
    expect(statuses(item.post)).toEqual({
      201: 'written', 401: 'AdminUnauthorized', 403: 'RoleForbidden', 404: 'NotFound', 405: 'AdminMethodNotAllowed',
      415: 'UnsupportedMediaType', 422: 'UnprocessableEntity', 429: 'TooManyRequests', 500: 'InternalError', 503: 'WriteServiceUnavailable',
    });
    expect(Object.keys(item.post.responses['201'].headers)).toEqual(['RateLimit-Policy', 'RateLimit', 'X-Request-Id', 'X-Content-Type-Options']);
    expect(item.head).toBeUndefined();
  });

  it('keeps a more specific response or header written in the place of a derived one', () => {
    const item = read(['content:read']);
    item.get.responses['422'] = ref('responses', 'WriteUnprocessableEntity');
    item.get.responses['200'].headers = { ETag: ref('headers', 'StrongETag') };
    expect(deriveOperationParts(item, { ref, schemes })).toEqual([]);
    expect([refName(item.get.responses['422']), refName(item.get.responses['200'].headers.ETag)]).toEqual(['WriteUnprocessableEntity', 'StrongETag']);
  });

  it('reports, where it is written, every derived part a path item writes by hand, and a marker it cannot honour', () => {
    const item = read(['content:read'], { 'x-conditional': 'sometimes' });
    item.get.responses['401'] = ref('responses', 'Unauthorized');
    item.get.responses['200'].headers = { ETag: ref('headers', 'ETag') };
    item.head = { operationId: 'headGetThing', responses: { 200: ref('responses', 'HeadRefused') } };
    expect(deriveOperationParts(item, { ref, schemes })).toEqual([
      { where: ['head'], message: expect.stringMatching(/^a `head` operation: the service answers HEAD for every GET/) },
      { where: ['get', 'x-conditional'], message: 'x-conditional is only `false`, on a GET that never answers 304' },
      { where: ['get', 'responses', '200', 'headers', 'ETag'], message: expect.stringMatching(/^header ETag is derived/) },
      { where: ['get', 'responses', '401'], message: expect.stringMatching(/^response 401 is derived/) },
    ]);
    // The written head is left as written, for the lint to point at.
    expect(item.head.operationId).toBe('headGetThing');
  });
});
