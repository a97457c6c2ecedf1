import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { NO_RATE_LIMIT, useTestServer } from '../../support/test-server.js';

// Every operation of the bundled contract, driven by the contract itself, under inputs an attacker
// or a careless client sends: letter-case changes of path segments, prototype-property names as
// segments and parameters, non-canonical numbers and UUIDs, bodies in bad encodings. Nothing may
// answer 5xx, every answer is the envelope, and each status is one the order of checks allows.

interface Parameter { name: string; in: string; schema?: { type?: string | string[]; format?: string; enum?: unknown[]; $ref?: string } }
interface Operation { operationId: string; parameters?: Array<Parameter | { $ref: string }>; requestBody?: unknown; responses: Record<string, unknown> }
type Document = { paths: Record<string, Record<string, unknown>>; components: { parameters: Record<string, Parameter> } };

const document = loadOpenApiDocument() as Document;
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'];
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const ODD_NUMBERS = ['1e3', '1e309', '1e400', 'Infinity', '-Infinity', 'NaN', '0x10', '0b1', ' 5', '5 ', '5.0', '+5', '-0', '00005', '99999999999999999999'];
const SAMPLE_UUID = '3f2b8c1e-9d4a-4e6b-8f7c-1a2b3c4d5e6f';
/** How a body is sent: as it is, or in a coding or a text the service cannot read (`bodyFor`). */
const ENCODINGS = ['none', 'gzip-garbage', 'x-foo', 'br-garbage', 'not-json'] as const;

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m] !== undefined).map((method) => ({ path, method, op: item[method] as Operation })));

/** The paths of the contract as patterns, spelt exactly (a parameter is one segment). */
const TEMPLATES = Object.keys(document.paths).map((t) => ({ path: t, pattern: new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
const matchesSomePath = (concrete: string): boolean => TEMPLATES.some((t) => t.pattern.test(concrete));

/**
 * The statuses the contract documents for what a request reaches: the operation at `concrete` for
 * `method` (another one than the fuzzed one when a mutated path spells another path), or 405
 * alone when that path takes no such method.
 */
function documentedFor(method: string, concrete: string): Set<number> {
  const path = TEMPLATES.find((t) => t.pattern.test(concrete))?.path;
  const op = path === undefined ? undefined : operations.find((o) => o.path === path && o.method === method.toLowerCase())?.op;
  if (op) return new Set(Object.keys(op.responses).map(Number));
  return new Set(path === undefined ? [404] : [405]);
}

/** The run's seed; each operation draws from a seed of its own made from it and its operationId (`seedOf`). */
const RUN_SEED = 20261123;

/**
 * FNV-1a (32 bits) of the operationId mixed with the run's seed: an operation's draws stay the same
 * when operations are added, removed or reordered around it.
 */
function seedOf(operationId: string, runSeed = RUN_SEED): number {
  let h = (0x811c9dc5 ^ runSeed) >>> 0;
  for (const byte of Buffer.from(operationId, 'utf8')) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h | 0;
}

function parametersOf(op: Operation): Parameter[] {
  return (op.parameters ?? []).map((p) => ('$ref' in p ? document.components.parameters[p.$ref.split('/').pop()!]! : p));
}

/** Ways a path can differ from the contract's spelling; each must be a 404, whatever else is wrong. */
const PATH_MUTATIONS = ['upper-case a literal segment', 'trailing slash', 'double slash', 'escape a letter', 'prototype name as a literal'] as const;

function mutatePath(concrete: string, template: string, how: (typeof PATH_MUTATIONS)[number], pick: number): string | undefined {
  const segments = concrete.split('/');
  const literal = template.split('/').map((s, i) => (s !== '' && !s.startsWith('{') ? i : -1)).filter((i) => i > 0);
  const at = literal[pick % literal.length]!;
  const word = segments[at]!;
  switch (how) {
    case 'upper-case a literal segment': {
      const changed = word.toUpperCase() === word ? word.toLowerCase() : word.toUpperCase();
      return changed === word ? undefined : [...segments.slice(0, at), changed, ...segments.slice(at + 1)].join('/');
    }
    case 'trailing slash':
      return `${concrete}/`;
    case 'double slash':
      return [...segments.slice(0, at), '', ...segments.slice(at)].join('/');
    case 'escape a letter': {
      const i = [...word].findIndex((c) => /[a-z]/i.test(c));
      if (i < 0) return undefined;
      const escaped = `${word.slice(0, i)}%${word.charCodeAt(i).toString(16)}${word.slice(i + 1)}`;
      return [...segments.slice(0, at), escaped, ...segments.slice(at + 1)].join('/');
    }
    case 'prototype name as a literal':
      return [...segments.slice(0, at), PROTOTYPE_NAMES[pick % PROTOTYPE_NAMES.length]!, ...segments.slice(at + 1)].join('/');
  }
}

// The quota is raised so the fuzzing itself is never refused by the limiter; 429 is tested elsewhere.
const server = useTestServer({ rateLimit: NO_RATE_LIMIT, validateResponses: false });
let workspace: TestWorkspace;
let memberToken: string;

beforeAll(async () => {
  workspace = await createTestWorkspace(server.store);
  memberToken = (await createTestMemberToken(server.store, workspace)).token;
});

interface Attempt { method: string; url: string; headers: Record<string, string>; body?: Buffer | string; mustBe404: boolean; documented: Set<number> }

/** A body in one of the fuzzed encodings; a body-less operation gets it too, and must ignore it. */
function bodyFor(encoding: string, pick: number, headers: Record<string, string>): Buffer | string {
  headers['content-type'] = 'application/json';
  if (encoding === 'gzip-garbage') { headers['content-encoding'] = 'gzip'; return Buffer.from('definitely not gzip'); }
  if (encoding === 'br-garbage') { headers['content-encoding'] = 'br'; return Buffer.from([0xff, 0x00, 0x13, 0x37]); }
  if (encoding === 'x-foo') { headers['content-encoding'] = 'x-foo'; return '{}'; }
  if (encoding === 'not-json') return '{"name": ';
  return JSON.stringify({ [PROTOTYPE_NAMES[pick % PROTOTYPE_NAMES.length]!]: { polluted: true }, name: ODD_NUMBERS[pick % ODD_NUMBERS.length] });
}

async function sendAttempt(a: Attempt): Promise<{ status: number; text: string; json: boolean }> {
  const response = await fetch(`${server.url}${a.url}`, { method: a.method, headers: a.headers, body: a.body, redirect: 'manual' });
  return { status: response.status, text: await response.text(), json: (response.headers.get('content-type') ?? '').startsWith('application/json') };
}

describe('every operation of the bundled contract under hostile inputs', () => {
  it(`covers every operation (${operations.length}) with random path, parameter, number, UUID and encoding variations`, async () => {
    expect(operations.length).toBeGreaterThan(60);
    const seen = new Set<string>();
    const failures: string[] = [];
    // Every operation gets the same number of runs, so adding one never leaves another undrawn.
    for (const [operationIndex, { op }] of operations.entries()) await fc.assert(
      fc.asyncProperty(
        fc.constant(operationIndex),
        fc.record({
          idKind: fc.constantFrom('uuid', 'UPPER-UUID', 'prototype', 'junk'),
          queryKind: fc.constantFrom('valid', 'odd-number', 'prototype', 'upper-uuid', 'unknown-prototype'),
          pathMutation: fc.option(fc.constantFrom(...PATH_MUTATIONS), { freq: 3 }),
          pick: fc.nat(100),
          encoding: fc.constantFrom(...ENCODINGS),
        }),
        async (index, v) => {
          const { path, method, op } = operations[index]!;
          seen.add(op.operationId);
          const params = parametersOf(op);
          let mustBe404 = false;
          let otherOperation = false;
          let concrete = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
            if (name === 'workspace_id') return workspace.workspaceId;
            switch (v.idKind) {
              case 'uuid': return SAMPLE_UUID;
              case 'UPPER-UUID': return SAMPLE_UUID.toUpperCase();
              case 'prototype': return PROTOTYPE_NAMES[v.pick % PROTOTYPE_NAMES.length]!;
              default: return 'not-an-id%zz';
            }
          });
          if (v.pathMutation) {
            const mutated = mutatePath(concrete, path, v.pathMutation, v.pick);
            if (mutated !== undefined) {
              concrete = mutated;
              // `/webhooks/EVENTS` is `/webhooks/{webhook_id}`: another operation, judged by its own rules.
              otherOperation = matchesSomePath(mutated);
              mustBe404 = !otherOperation;
            }
          }
          const query = new URLSearchParams();
          for (const p of params.filter((q) => q.in === 'query')) {
            if (v.queryKind === 'valid') {
              const values = p.schema?.enum;
              if (values) query.append(p.name, String(values[v.pick % values.length]));
            } else if (v.queryKind === 'odd-number') query.append(p.name, ODD_NUMBERS[v.pick % ODD_NUMBERS.length]!);
            else if (v.queryKind === 'prototype') query.append(p.name, PROTOTYPE_NAMES[v.pick % PROTOTYPE_NAMES.length]!);
            else if (v.queryKind === 'upper-uuid') query.append(p.name, SAMPLE_UUID.toUpperCase());
          }
          if (v.queryKind === 'unknown-prototype') query.append(PROTOTYPE_NAMES[v.pick % PROTOTYPE_NAMES.length]!, '1');
          const admin = path.startsWith('/api/workspace/');
          const headers: Record<string, string> = { authorization: `Bearer ${admin ? memberToken : workspace.key}` };
          // fetch sends no body with GET or HEAD; every other method gets one, whether it takes one or not.
          const body = ['get', 'head'].includes(method) ? undefined : bodyFor(v.encoding, v.pick, headers);
          const search = query.toString();
          const attempt: Attempt = {
            method: method.toUpperCase(),
            url: `${concrete}${search ? `?${search}` : ''}`,
            headers,
            body,
            mustBe404,
            documented: documentedFor(method, concrete),
          };
          const answer = await sendAttempt(attempt);
          const where = `${attempt.method} ${attempt.url} (${JSON.stringify(v)})`;
          if (answer.status >= 500) failures.push(`${answer.status} for ${where}`);
          // A download's 200 is the file itself; every other answer is the envelope.
          const isFile = answer.status === 200 && !answer.json;
          if (attempt.method !== 'HEAD' && !isFile) {
            let envelope: { code?: unknown; messages?: unknown } | undefined;
            try {
              envelope = JSON.parse(answer.text) as typeof envelope;
            } catch {
              envelope = undefined;
            }
            if (typeof envelope?.code !== 'number' || typeof envelope.messages !== 'string') failures.push(`no envelope for ${where}: ${answer.text.slice(0, 120)}`);
          }
          if (mustBe404 && answer.status !== 404) failures.push(`${answer.status}, not 404, for a path the contract does not spell so: ${where}`);
          if (!attempt.documented.has(answer.status)) {
            failures.push(`${answer.status} is not documented for ${otherOperation ? 'the operation this path spells' : op.operationId}: ${where}`);
          }
          return true;
        },
      ),
      { seed: seedOf(op.operationId), numRuns: 8 },
    );
    // Any prototype-polluting body must not have reached Object.prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(failures.slice(0, 20)).toEqual([]);
    expect(seen.size).toBe(new Set(operations.map((o) => o.op.operationId)).size);
  }, 240_000);

  it('every operation that fetch can send a body to answers only statuses it documents, for a body in every fuzzed encoding (taken or not)', async () => {
    const failures: string[] = [];
    for (const { path, method, op } of operations.filter((o) => !['get', 'head'].includes(o.method))) {
      const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === 'workspace_id' ? workspace.workspaceId : SAMPLE_UUID));
      for (const encoding of ENCODINGS) {
        const headers: Record<string, string> = { authorization: `Bearer ${path.startsWith('/api/workspace/') ? memberToken : workspace.key}` };
        const body = bodyFor(encoding, 0, headers);
        const documented = documentedFor(method, url);
        const answer = await sendAttempt({ method: method.toUpperCase(), url, headers, body, mustBe404: false, documented });
        if (!documented.has(answer.status)) failures.push(`${answer.status} is not documented for ${op.operationId}: ${method.toUpperCase()} ${url} with a body (${encoding})`);
      }
    }
    expect(failures).toEqual([]);
  });
});
