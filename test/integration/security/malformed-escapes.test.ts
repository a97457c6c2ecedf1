import { beforeAll, describe, expect, it } from 'vitest';
import { HTTP_METHODS, loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { NO_RATE_LIMIT, useTestServer } from '../../support/test-server.js';

// Percent-escapes that do not decode to UTF-8 text, in every place a path carries a name or an
// id: the guides and assets of /docs, and every path parameter of both APIs. Each is the client's
// mistake: a 4xx in the envelope, never a 500, and nothing logged as an error.

/** A lone `%`, a truncated one, non-hex digits, a byte no UTF-8 starts with, overlong forms of `/`, a lone surrogate, a five-byte form. */
const MALFORMED = ['%', 'a%2', '%ZZ', '%ff', '%c0%af', '%e0%80%af', '%ed%a0%80', '%f8%88%80%80%80'];

interface Operation { operationId: string; requestBody?: unknown; responses: Record<string, unknown> }
const document = loadOpenApiDocument() as { paths: Record<string, Record<string, Operation | undefined>> };

/** Every operation with a path parameter, once per parameter. */
const targets = Object.entries(document.paths).flatMap(([path, item]) =>
  HTTP_METHODS.flatMap((method) => {
    const op = item[method];
    if (!op) return [];
    return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ path, method: method.toUpperCase(), op, parameter: m[1]! }));
  }));

const server = useTestServer({ rateLimit: NO_RATE_LIMIT });
let workspace: TestWorkspace;
let memberToken: string;
beforeAll(async () => {
  workspace = await createTestWorkspace(server.store);
  memberToken = (await createTestMemberToken(server.store, workspace)).token;
});

/** The lines logged at level error or above since `from` lines were written. */
const errorLinesSince = (from: number) => server.logLines().slice(from).filter((line) => (JSON.parse(line) as { level: number }).level >= 50);

async function envelopeOf(response: Response): Promise<{ code?: unknown; messages?: unknown }> {
  const text = await response.text();
  try {
    return JSON.parse(text) as { code?: unknown; messages?: unknown };
  } catch {
    return { messages: text.slice(0, 80) };
  }
}

describe('malformed percent-escapes in a path', () => {
  it('a guide or an asset of /docs whose name does not decode is not found (404, 4040), like any unknown name', async () => {
    const logged = server.logLines().length;
    const failures: string[] = [];
    for (const prefix of ['/docs/guides/', '/docs/guides/images/', '/docs/assets/']) {
      for (const escape of MALFORMED) {
        for (const method of ['GET', 'HEAD']) {
          const url = `${prefix}${escape}`;
          const response = await fetch(`${server.url}${url}`, { method });
          const envelope = method === 'GET' ? await envelopeOf(response) : { code: 4040 };
          if (response.status !== 404 || envelope.code !== 4040) failures.push(`${method} ${url}: ${response.status} ${JSON.stringify(envelope)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(errorLinesSince(logged)).toEqual([]);
  });

  it(`every path parameter of both APIs (${targets.length} of them) answers a documented 4xx in the envelope, with a valid credential`, async () => {
    expect(targets.length).toBeGreaterThan(20);
    const logged = server.logLines().length;
    const failures: string[] = [];
    // Three escapes a parameter, taken in turn, so that every escape meets every kind of parameter
    // across the operations at a third of the requests.
    for (const [t, { path, method, op, parameter }] of targets.entries()) {
      const admin = path.startsWith('/api/workspace/');
      for (const escape of [0, 1, 2].map((i) => MALFORMED[(t * 3 + i) % MALFORMED.length]!)) {
        const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === parameter ? escape : name === 'workspace_id' ? workspace.workspaceId : '3f2b8c1e-9d4a-4e6b-8f7c-1a2b3c4d5e6f'));
        const headers: Record<string, string> = { authorization: `Bearer ${admin ? memberToken : workspace.key}` };
        if (op.requestBody !== undefined) headers['content-type'] = 'application/json';
        const response = await fetch(`${server.url}${url}`, { method, headers, body: op.requestBody !== undefined ? '{}' : undefined });
        const envelope = method === 'HEAD' ? { code: 0, messages: '' } : await envelopeOf(response);
        const documented = Object.keys(op.responses).includes(String(response.status));
        if (response.status < 400 || response.status >= 500 || !documented || typeof envelope.code !== 'number' || typeof envelope.messages !== 'string') {
          failures.push(`${method} ${url} (${op.operationId}): ${response.status} ${JSON.stringify(envelope)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(errorLinesSince(logged)).toEqual([]);
  }, 120_000);
});
