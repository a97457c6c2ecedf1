// walks-operations: asks every operation of the contract (test/scaffold/ runs it after adding an endpoint)
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { compileOperations } from '@workspace-read-api/contract/contract-operations.js';
import { OperationMatcher } from '@workspace-read-api/contract/operation-matcher.js';
import { requirementOf, type SecuredOperationObject } from '@workspace-read-api/contract/operation-requirements.js';
import { exemptFromSubscription, expectedScopes, isReadApi } from '../../contract/framework/scopes.js';
import { Contract } from '../../contract/framework/spec.js';

// What each operation asks of its caller, as the app compiles it at start-up and the guards read it
// (src/http/guards/scope-guard.ts, subscription-guard.ts, admin-guard.ts), checked for every operation of
// the contract without a server; the guards' own behaviour is checked over HTTP in
// test/integration/security/read-guards.test.ts.

const contract = new Contract();
const document = loadOpenApiDocument();
const compiled = compileOperations(document);
const matcher = new OperationMatcher(compiled);

/** Read straight from the operation's `security` and `x-subscription-exempt`, each scheme's `x-credential` looked up. */
function writtenRequirement(method: string, path: string) {
  const op = contract.document.paths[path]![method]!;
  const schemes = contract.document.components!.securitySchemes as Record<string, { 'x-credential': string }>;
  const lists = (credential: string) => (op.security ?? []).flatMap((r) => Object.entries(r).filter(([scheme]) => schemes[scheme]!['x-credential'] === credential).map(([, list]) => list));
  return {
    credentials: ['api_key', 'member_token'].filter((c) => lists(c).length > 0),
    scopes: lists('api_key')[0] ?? [],
    roles: lists('member_token')[0] ?? [],
    subscriptionExempt: op['x-subscription-exempt'] === true,
  };
}

/**
 * The administration API's permissions as the MemberRole schema describes them, written out apart
 * from the contract's `security`: owners manage webhooks, API keys and members; any member reads (GET, and so HEAD) the
 * member list, the event catalog (which API keys reach too) and the requests per day.
 */
function documentedAdminRequirement(method: string, path: string) {
  const anyMember = method === 'get' && (path.endsWith('/members') || path.endsWith('/webhooks/events') || path.endsWith('/usage/daily'));
  return {
    credentials: path.endsWith('/webhooks/events') ? ['api_key', 'member_token'] : ['member_token'],
    scopes: [],
    roles: anyMember ? [] : ['owner'],
    subscriptionExempt: false,
  };
}

/** The API's scope table and subscription exemptions (docs/client-teams.md), apart from the contract. */
function documentedReadRequirement(path: string) {
  return { credentials: ['api_key'], scopes: expectedScopes(path), roles: [], subscriptionExempt: exemptFromSubscription(path) };
}

describe('the compiled requirement table', () => {
  it('has one entry for each operation of the contract (no HEAD operation: the service answers HEAD as the GET)', () => {
    expect(compiled.map((op) => op.operationId).sort()).toEqual(contract.operations.map((op) => op.operationId).sort());
    expect(contract.operations.filter((op) => isReadApi(op.path)).length).toBeGreaterThanOrEqual(41);
  });

  it('gives every operation, as the matcher finds it for a request, what its security and extensions say and what the documented tables say', () => {
    for (const op of contract.operations) {
      const concrete = op.path.replace(/\{[^}]+\}/g, 'x1');
      const match = matcher.match(op.method.toUpperCase(), concrete);
      const where = `${op.method.toUpperCase()} ${op.path}`;
      expect(match.kind === 'operation' ? match.operation.operationId : match.kind, where).toBe(op.operationId);
      // Credentials in a fixed order: the contract lists the schemes in no particular one.
      const requirement = match.kind === 'operation' ? { ...match.operation.requirement, credentials: [...match.operation.requirement.credentials].sort() } : undefined;
      expect(requirement, `${where} as its security and x-subscription-exempt say`).toEqual(writtenRequirement(op.method, op.path));
      const documented = isReadApi(op.path) ? documentedReadRequirement(op.path) : documentedAdminRequirement(op.method, op.path);
      expect(requirement, `${where} as the documented tables say`).toEqual(documented);
    }
  });
});

describe('requirementOf', () => {
  const schemes = { BearerAuth: { 'x-credential': 'api_key' }, ApiKeyHeader: { 'x-credential': 'api_key' }, MemberToken: { 'x-credential': 'member_token' }, Plain: {} };
  const vocabulary = { scopes: ['iq:read', 'content:read'], roles: ['owner', 'member'] };
  const of = (op: SecuredOperationObject) => requirementOf(op, schemes, vocabulary, 'GET /x');

  it('reads the scopes every API-key scheme names, the roles of the member-token scheme and the exemption', () => {
    expect(of({ security: [{ BearerAuth: ['iq:read', 'content:read'] }, { ApiKeyHeader: ['content:read', 'iq:read'] }], 'x-subscription-exempt': true }))
      .toEqual({ credentials: ['api_key'], scopes: ['iq:read', 'content:read'], roles: [], subscriptionExempt: true });
    expect(of({ security: [{ MemberToken: ['owner'] }, { BearerAuth: [] }] }))
      .toEqual({ credentials: ['member_token', 'api_key'], scopes: [], roles: ['owner'], subscriptionExempt: false });
  });

  it('refuses, naming the operation, what the guards could not enforce as written', () => {
    expect(() => of({})).toThrow('GET /x: declares no security requirement');
    expect(() => of({ security: [] })).toThrow('GET /x: declares no security requirement');
    expect(() => of({ security: [{ Plain: [] }] })).toThrow('GET /x: security requirement {"Plain":[]} names no scheme with an x-credential');
    expect(() => of({ security: [{ Unknown: [] }] })).toThrow('GET /x: security requirement {"Unknown":[]} names no scheme with an x-credential');
    expect(() => of({ security: [{ BearerAuth: [], ApiKeyHeader: [] }] })).toThrow('names no scheme with an x-credential');
    expect(() => of({ security: [{ BearerAuth: ['iq:read'] }, { ApiKeyHeader: ['content:read'] }] })).toThrow('GET /x: its api_key schemes name different requirements');
    expect(() => of({ security: [{ BearerAuth: ['iq:read'] }, { ApiKeyHeader: ['iq:read', 'content:read'] }] })).toThrow('its api_key schemes name different requirements');
    expect(() => of({ security: [{ BearerAuth: ['admin:write'] }] })).toThrow('GET /x: admin:write is not a scope');
    expect(() => of({ security: [{ MemberToken: ['guest'] }] })).toThrow('GET /x: guest is not a member role');
    expect(() => of({ security: [{ BearerAuth: [] }], 'x-subscription-exempt': 'yes' })).toThrow('GET /x: x-subscription-exempt must be true when present');
    expect(() => of({ security: [{ BearerAuth: [] }], 'x-subscription-exempt': false })).toThrow('x-subscription-exempt must be true when present');
  });
});
