// What every operation of the contract has by rule rather than by choice, added to it at lint and
// bundle time (scripts/redocly-derivation-plugin.mjs) so the path files hold only what is
// specific to an operation (openapi/README.md, "What a path file leaves out"):
//   - on each success response written in the path file: RateLimit-Policy, RateLimit, X-Request-Id,
//     X-Content-Type-Options;
//     on a GET's 200 also ETag, Cache-Control and Vary;
//   - a GET's 304 (NotModified), unless the GET says `x-conditional: false`;
//   - the refusals its `security` and markers imply: 401, 402 (read API, not
//     `x-subscription-exempt`), 403 (a scope or role is required), 405, 415 (it takes a body), 422,
//     429, 500, 503 (WriteServiceUnavailable on a change), each from the response component of its
//     API; a path file may write a more specific response in the place of one of these;
// No HEAD operation: HEAD is HTTP's, for every GET (RFC 9110), and the document says so once, in its
// top-level `x-head-for-every-get`; the service answers it from the GET (src/http/head-requests.ts).
// A `head` operation, listed beside every GET, nearly doubled every generated client and broke two
// generators, so a path file that writes one fails the lint.
// The functions here change the path item they are given and return what a path file must not say.

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The headers every success answer carries, then those a GET's 200 adds (name → header component). */
const SUCCESS_HEADERS = { 'RateLimit-Policy': 'RateLimitPolicy', RateLimit: 'RateLimit', 'X-Request-Id': 'XRequestId', 'X-Content-Type-Options': 'XContentTypeOptions' };
const READ_HEADERS = { ETag: 'ETag', 'Cache-Control': 'CacheControl', Vary: 'Vary' };

/**
 * The standard refusals of each API (status → response component), and when one applies. The read
 * API (API keys only) and the administration API (member tokens) word 401, 403 and 405 differently.
 */
const REFUSALS = [
  { status: '401', read: 'Unauthorized', administration: 'AdminUnauthorized', when: () => true },
  { status: '402', read: 'PaymentRequired', when: (op, api) => api === 'read' && op['x-subscription-exempt'] !== true },
  { status: '403', read: 'Forbidden', administration: 'RoleForbidden', when: (op) => (op.security ?? []).some((r) => Object.values(r).some((list) => list.length > 0)) },
  { status: '405', read: 'MethodNotAllowed', administration: 'AdminMethodNotAllowed', when: () => true },
  { status: '415', read: 'UnsupportedMediaType', administration: 'UnsupportedMediaType', when: (op) => op.requestBody !== undefined },
  { status: '422', read: 'UnprocessableEntity', administration: 'UnprocessableEntity', when: () => true },
  { status: '429', read: 'TooManyRequests', administration: 'TooManyRequests', when: () => true },
  { status: '500', read: 'InternalError', administration: 'InternalError', when: () => true },
  { status: '503', read: 'ServiceUnavailable', administration: 'ServiceUnavailable', when: (op, api, method) => method === 'get' },
  // A change can lose its COMMIT (5031) as well as find the database away or busy (5030).
  { status: '503', read: 'WriteServiceUnavailable', administration: 'WriteServiceUnavailable', when: (op, api, method) => method !== 'get' },
];

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which API an operation belongs to: the administration API takes member tokens (openapi/README.md). */
function apiOf(op, schemes) {
  const credentials = (op.security ?? []).flatMap((r) => Object.keys(r).map((name) => schemes[name]?.['x-credential']));
  return credentials.includes('member_token') ? 'administration' : 'read';
}

/** Whether a node written in a path file is the reference the derivation would add (however the path is spelt). */
function sameRef(node, derived) {
  return isObject(node) && typeof node.$ref === 'string' && node.$ref.split('/').at(-1) === derived.$ref.split('/').at(-1)
    && node.$ref.split('/').at(-2) === derived.$ref.split('/').at(-2);
}

/** Gives a response an empty `headers` where a reader looks for it: right after its description. */
function withHeadersAfterDescription(response) {
  const entries = Object.entries(response);
  for (const [key] of entries) delete response[key];
  for (const [key, value] of entries) {
    response[key] = value;
    if (key === 'description') response.headers = {};
  }
  response.headers ??= {};
}

/**
 * Adds the derived parts to one path item. `ref(kind, name)` makes the `$ref` object that reaches
 * `components/<kind>/<name>.yaml` from the path item's file; `schemes` are the document's security
 * schemes. Returns one problem per thing the path item writes by hand that is derived, each with
 * the JSON path (array of keys) under the path item where it is written.
 */
export function deriveOperationParts(pathItem, { ref, schemes }) {
  const problems = [];
  const refusal = (where, message) => problems.push({ where, message });
  if (isObject(pathItem.head)) {
    refusal(['head'], 'a `head` operation: the service answers HEAD for every GET, as the document says once (`x-head-for-every-get`); remove it');
  }
  for (const method of HTTP_METHODS) {
    const op = pathItem[method];
    if (!isObject(op) || method === 'head') continue;
    const conditional = op['x-conditional'];
    if (conditional !== undefined && (conditional !== false || method !== 'get')) {
      refusal([method, 'x-conditional'], 'x-conditional is only `false`, on a GET that never answers 304');
    }
    if (!isObject(op.responses)) op.responses = {};
    const { responses } = op;
    for (const [status, response] of Object.entries(responses)) {
      if (!/^2\d\d$/.test(status) || !isObject(response) || response.$ref !== undefined) continue;
      const headers = method === 'get' && status === '200' ? { ...SUCCESS_HEADERS, ...READ_HEADERS } : SUCCESS_HEADERS;
      if (!isObject(response.headers)) withHeadersAfterDescription(response);
      for (const [name, component] of Object.entries(headers)) {
        if (!Object.hasOwn(response.headers, name)) response.headers[name] = ref('headers', component);
        else if (sameRef(response.headers[name], ref('headers', component))) refusal([method, 'responses', status, 'headers', name], `header ${name} is derived for every ${headers === SUCCESS_HEADERS ? 'success answer' : "GET's 200"}; remove it`);
      }
    }
    const api = apiOf(op, schemes);
    const derived = REFUSALS.filter((r) => r.when(op, api, method)).map((r) => [r.status, r[api]]);
    if (method === 'get' && conditional !== false) derived.push(['304', 'NotModified']);
    // Status codes are integer-like keys, which JavaScript keeps in ascending order. A path file
    // may put a more specific response in a derived one's place (a write's 422 that also names
    // its Idempotency-Key); writing the derived one itself is a copy.
    for (const [status, component] of derived) {
      if (!Object.hasOwn(responses, status)) responses[status] = ref('responses', component);
      else if (sameRef(responses[status], ref('responses', component))) refusal([method, 'responses', status], `response ${status} is derived from the operation's security and markers; remove it`);
    }
  }
  return problems;
}
