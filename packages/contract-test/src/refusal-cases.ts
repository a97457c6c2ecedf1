import fc from 'fast-check';
import { credentialWays, requiredScopes, takesOnly, tokenPrefix } from './credentials.js';
import { all, allows, namesParameters, reaches, refusesScope, status } from './expectations.js';
import type { Credential, OutgoingRequest } from './http-exchange.js';
import type { Operation } from './openapi-contract.js';
import { invalidArbitrary, invalidValue, unknownValue } from './parameter-values.js';
import { fillPath, pathParameters, queryParameters, type ReadyRead } from './read-cases.js';
import type { RunContext } from './run-context.js';
import { checkProperty } from './property-cases.js';

/** Methods tried on a path to see its 405, in this order; HEAD and OPTIONS are left to the service. */
const WRONG_METHODS = ['PUT', 'PATCH', 'POST', 'DELETE'];

function documents(op: Operation, statusCode: number): boolean {
  return op.responseKeys.includes(String(statusCode)) || op.responseKeys.includes(`${String(statusCode)[0]}XX`);
}

function request(read: ReadyRead, overrides: Partial<OutgoingRequest> = {}): OutgoingRequest {
  return { method: read.op.method, path: fillPath(read.op.path, read.pathValues[0]!), query: [], credential: read.credential, ...overrides };
}

/**
 * For each path parameter in turn, the path with that one alone given a valid value that names
 * nothing (a resource, or a workspace, that does not exist), derived from its schema
 * (`unknownValue`); a parameter no such value can be made for (an enumeration) is left out.
 */
function pathsWithUnknownValue(ctx: RunContext, read: ReadyRead): Array<{ path: string; name: string }> {
  return pathParameters(read.op).flatMap((param) => {
    const value = unknownValue(ctx.contract.schema(param.schema) ?? {}, { uuid: () => ctx.values.uuid(), seed: ctx.values.seedFor(`${read.op.operationId}:${param.name}`) });
    return value === undefined ? [] : [{ path: fillPath(read.op.path, { ...read.pathValues[0]!, [param.name]: value }), name: param.name }];
  });
}

/**
 * Authentication refusals of one operation (each spends the per-address budget of failed
 * authentications, which is small on purpose): no credential (401 4021) and a well-formed
 * credential nobody issued (401 4022), of the kind the operation takes.
 */
export async function checkAuthenticationOf(ctx: RunContext, read: ReadyRead): Promise<void> {
  if (!documents(read.op, 401)) return;
  await ctx.exchange(read.op, 'no credential → 401 4021', request(read, { credential: undefined }), status(401, 4021));
  const unissued: Credential = { ...read.credential, label: 'unissued', value: ctx.values.unissuedToken(tokenPrefix(read.credential.value)), secret: false, envVar: undefined, failsAuthentication: true };
  await ctx.exchange(read.op, 'a well-formed credential nobody issued → 401 4022', request(read, { credential: unissued }), status(401, 4022));
}

/** Once: a credential whose checksum is wrong (401 4022), told apart from one nobody issued. */
export async function checkChecksum(ctx: RunContext, read: ReadyRead): Promise<void> {
  const valid = ctx.values.unissuedToken(tokenPrefix(read.credential.value));
  const corrupted = valid.slice(0, -1) + (valid.endsWith('A') ? 'B' : 'A');
  const malformed: Credential = { ...read.credential, label: 'malformed', value: corrupted, secret: false, envVar: undefined, failsAuthentication: true };
  await ctx.exchange(read.op, 'a credential with a wrong checksum → 401 4022', request(read, { credential: malformed }), status(401, 4022));
}

/** The key sent each other way its operation's security allows (e.g. `X-API-KEY` besides `Authorization`). */
export async function checkSecuritySchemes(ctx: RunContext, ready: readonly ReadyRead[]): Promise<void> {
  const first = ready.find((r) => pathParameters(r.op).length === 0);
  if (!first) return;
  for (const way of credentialWays(ctx.contract, first.op, first.credential.label, first.credential.value)) {
    if (way.header === first.credential.header) continue;
    await ctx.exchange(first.op, `credential in ${way.header}`, request(first, { credential: way }), reaches(first.op));
  }
}

/**
 * Parameter refusals on every read: an unknown parameter together with a malformed value of every
 * documented parameter (422 naming each one), a property-based draw of invalid values, a malformed
 * id in the path and a tampered cursor (422 naming `cursor`).
 */
export async function checkParametersOf(ctx: RunContext, read: ReadyRead, examples: number): Promise<void> {
  {
    const { op } = read;
    if (documents(op, 422)) {
      const unknown = ctx.values.unknownParameterName();
      const malformed = queryParameters(op)
        .map((p): [string, string | undefined] => [p.name, invalidValue(ctx.contract.schema(p.schema) ?? {})])
        .filter((e): e is [string, string] => e[1] !== undefined);
      const query: Array<[string, string]> = [[unknown, '1'], ...malformed];
      await ctx.exchange(op, `unknown ${unknown} and malformed ${malformed.map(([n]) => n).join(', ') || 'nothing else'} → 422 naming each`,
        request(read, { query }), all(status(422, 4220), namesParameters(query.map(([n]) => n))));
      const model = invalidModel(ctx, op);
      if (model) {
        await checkProperty(ctx, op, 'invalid values refused with 422 naming each', model, (query) => request(read, { query }),
          (query) => all(status(422, 4220), namesParameters(query.map(([n]) => n))), examples);
      }
      for (const param of pathParameters(op).filter((p) => ctx.contract.schema(p.schema)?.format === 'uuid')) {
        const path = fillPath(op.path, { ...read.pathValues[0]!, [param.name]: 'not-a-uuid' });
        await ctx.exchange(op, `malformed {${param.name}} → 422 naming it`, request(read, { path }), all(status(422, 4220), namesParameters([param.name])));
      }
      if (read.cursor) {
        const tampered = tamper(read.cursor);
        await ctx.exchange(op, 'a tampered cursor → 422 naming cursor', request(read, { query: [['cursor', tampered]] }),
          all(status(422, 4220), namesParameters(['cursor'])));
      }
    }
  }
}

/** Each path parameter of a read in turn given a value that names nothing, whatever its type: 404 (4040). */
export async function checkNotFoundOf(ctx: RunContext, read: ReadyRead): Promise<void> {
  if (!documents(read.op, 404)) return;
  for (const unknown of pathsWithUnknownValue(ctx, read)) {
    await ctx.exchange(read.op, `a {${unknown.name}} that names nothing → 404`, request(read, { path: unknown.path }), status(404, 4040));
  }
}

/** Invalid values for one or more of the operation's query parameters, as query pairs; undefined when none can be invalid. */
function invalidModel(ctx: RunContext, op: Operation): fc.Arbitrary<Array<[string, string]>> | undefined {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const param of queryParameters(op)) {
    const arbitrary = invalidArbitrary(ctx.contract.schema(param.schema) ?? {});
    if (arbitrary) model[param.name] = arbitrary;
  }
  if (Object.keys(model).length === 0) return undefined;
  return fc.record(model, { requiredKeys: [] }).filter((r) => Object.keys(r).length > 0)
    .map((sample) => Object.entries(sample).filter((e): e is [string, string] => e[1] !== undefined));
}

/** A cursor with one character changed in its middle (its signature no longer matches). */
function tamper(cursor: string): string {
  const i = Math.floor(cursor.length / 2);
  return cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
}

/**
 * A method the path does not document, once per path: 405 (4050) with `Allow` listing the
 * documented ones, checked against the documentation of every operation of the path. Methods that could change something if a server routed them
 * by mistake come last.
 */
export async function checkMethods(ctx: RunContext, operations: ReadonlyArray<{ op: Operation; credential: Credential }>): Promise<void> {
  const done = new Set<string>();
  for (const { op, credential } of operations) {
    if (done.has(op.path)) continue;
    done.add(op.path);
    const values: Record<string, string> = {};
    for (const param of pathParameters(op)) {
      const id = ctx.ids.forPathParameter(op, param.name)[0];
      if (id) values[param.name] = id;
    }
    if (pathParameters(op).some((p) => values[p.name] === undefined) || !documents(op, 405)) continue;
    const methods = ctx.contract.pathMethods(op.path);
    const wrong = WRONG_METHODS.find((m) => !methods.includes(m));
    if (!wrong) continue;
    const title = `${wrong} → 405 with Allow: ${methods.join(', ')}`;
    const sent: OutgoingRequest = { method: wrong, path: fillPath(op.path, values), query: [], credential };
    const expectation = all(status(405, 4050), allows(methods, wrong));
    const response = await ctx.exchange(op, title, sent, expectation);
    for (const sibling of response ? ctx.contract.operations.filter((o) => o.path === op.path && o !== op && documents(o, 405)) : []) {
      ctx.checkAgainst(sibling, title, sent, response!, expectation);
    }
  }
}

/** What a not-reached entry names when an operation's scope refusal was not checked. */
export const SCOPE_REFUSAL = 'a key lacking its scope → 403';

/** A key that holds some scopes and not others, with what it holds. */
export interface ScopedKey {
  credential: Credential;
  granted: readonly string[];
}

/**
 * The scope check of one read: a key lacking one of its required scopes answers 403 (4023) listing
 * `required` and `missing`; a key holding every one of them (when one was given) does not.
 */
export async function checkScopeOf(ctx: RunContext, read: ReadyRead, keys: readonly ScopedKey[], { holdingToo = true } = {}): Promise<void> {
  const required = requiredScopes(ctx.contract, read.op);
  const usable = keys.map((k) => ({ ...k, way: credentialWays(ctx.contract, read.op, k.credential.label, k.credential.value)[0] })).filter((k) => k.way);
  const lacking = usable.find((k) => required.some((s) => !k.granted.includes(s)));
  const holding = holdingToo ? usable.find((k) => required.every((s) => k.granted.includes(s))) : undefined;
  if (!lacking) ctx.skip(read.op, SCOPE_REFUSAL, `scope refusal not checked: no key of the run lacks ${required.join(', ')}`);
  if (lacking) {
    const missing = required.filter((s) => !lacking.granted.includes(s));
    await ctx.exchange(read.op, `${lacking.credential.label} lacking ${missing.join(', ')} → 403 4023`, request(read, { credential: { ...lacking.credential, ...lacking.way!, envVar: lacking.credential.envVar } }),
      all(status(403, 4023), refusesScope(required, lacking.granted)));
  }
  if (holding && (lacking || keys.length === 1)) {
    await ctx.exchange(read.op, `${holding.credential.label} holding ${required.join(', ') || 'no scope'}, all it needs → 2xx`,
      request(read, { credential: { ...holding.credential, ...holding.way!, envVar: holding.credential.envVar } }), reaches(read.op));
  }
}

/**
 * The documented order of checks, wherever two refusals can be provoked on one request: the
 * request carries both causes and must answer the one that comes first (e.g. no key and an unknown
 * parameter → 401, not 422). Each operation follows the order the contract states for it (the
 * read API's, or the administration API's, where a workspace that is not the caller's answers 404
 * before any 403 or 422, and a resource that does not exist 404 after them); each pair of causes
 * is tried once per order, on the first read that can carry both.
 */
export async function checkOrder(ctx: RunContext, ready: readonly ReadyRead[], limited: { credential: Credential; granted: readonly string[] } | undefined): Promise<void> {
  type Cause = { status: number; code?: number; name: string; rank: (order: readonly number[]) => number; applies: (read: ReadyRead) => boolean; apply: (read: ReadyRead, r: OutgoingRequest) => OutgoingRequest };
  const otherWorkspace = (read: ReadyRead) => pathParameters(read.op).some((p) => p.name === 'workspace_id');
  const unknownResource = (read: ReadyRead) => pathsWithUnknownValue(ctx, read).filter((found) => found.name !== 'workspace_id').at(-1);
  const causes: Cause[] = [
    { status: 401, code: 4021, name: '401', rank: (o) => o.indexOf(401), applies: () => true, apply: (_read, r) => ({ ...r, credential: undefined }) },
    {
      status: 403,
      code: 4023,
      name: '403',
      rank: (o) => o.indexOf(403),
      applies: (read) => limited !== undefined && credentialWays(ctx.contract, read.op, 'limited', limited.credential.value).length > 0
        && requiredScopes(ctx.contract, read.op).some((s) => !limited.granted.includes(s)),
      apply: (read, r) => ({ ...r, credential: { ...limited!.credential, ...credentialWays(ctx.contract, read.op, limited!.credential.label, limited!.credential.value)[0] } }),
    },
    { status: 422, code: 4220, name: '422', rank: (o) => o.indexOf(422), applies: () => true, apply: (_read, r) => ({ ...r, query: [...r.query, [ctx.values.unknownParameterName(), '1']] }) },
    {
      status: 404, code: 4040, name: '404 (another workspace)', rank: (o) => o.indexOf(404), applies: otherWorkspace,
      apply: (read, r) => ({ ...r, path: fillPath(read.op.path, { ...read.pathValues[0]!, workspace_id: ctx.values.uuid() }) }),
    },
    {
      status: 404, code: 4040, name: '404', rank: (o) => o.lastIndexOf(404), applies: (read) => !otherWorkspace(read) && unknownResource(read) !== undefined,
      apply: (read, r) => ({ ...r, path: unknownResource(read)!.path }),
    },
  ];
  const orders = new Map<string, ReadyRead[]>();
  for (const read of ready) {
    const key = ctx.contract.orderOfChecks(read.op).join(' ');
    if (key !== '') orders.set(key, [...(orders.get(key) ?? []), read]);
  }
  for (const [key, reads] of orders) {
    const order = key.split(' ').map(Number);
    const ranked = causes.filter((c) => c.rank(order) >= 0).sort((a, b) => a.rank(order) - b.rank(order));
    for (const [i, first] of ranked.entries()) {
      for (const second of ranked.slice(i + 1)) {
        // Both causes travel in the credential: a request cannot lack a key and a scope at once.
        if (first.status === 401 && second.status === 403) continue;
        const read = reads.find((r) => documents(r.op, first.status) && documents(r.op, second.status) && first.applies(r) && second.applies(r)
          && takesOnly(ctx.contract, r.op, r.credential.value));
        if (!read) continue;
        const built = second.apply(read, first.apply(read, request(read)));
        await ctx.exchange(read.op, `order of checks: ${first.name} before ${second.name}`, built, status(first.status, first.code));
      }
    }
  }
}
