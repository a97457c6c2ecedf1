// walks-operations: asks every operation of the contract (test/scaffold/ runs it after adding an endpoint)
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { send, noRoute } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';

// A request path matches an operation only exactly as the contract writes it: letter case, a
// trailing `/`, `//` and percent-escaped letters all make another path, which no operation has.
// The operations come from the bundled contract, so a new one is covered without editing this file.

const server = useTestServer();

const document = loadOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
const readPaths = Object.keys(document.paths).filter((p) => p.startsWith('/api/v1/') && 'get' in document.paths[p]!);
const isTemplated = (path: string) => path.includes('{');
const lists = readPaths.filter((p) => !isTemplated(p) && p !== '/api/v1/me');
const singleItems = readPaths.filter(isTemplated);

/** `/api/v1/visibility/prompts/{prompt}` with every parameter filled by a fresh UUID. */
const filled = (template: string) => template.replace(/\{[^}]+\}/g, () => randomUUID());

/**
 * Two spellings of the path that differ from the contract only in letter case: the segment after
 * `/api/v1` in capitals (`/api/v1/VISIBILITY/prompts`) and the last literal segment in mixed case
 * (`/api/v1/visibility/pRoMpTs`).
 */
function caseVariants(path: string): string[] {
  const segments = path.split('/');
  const literals = segments.map((s, i) => (i > 2 && s !== '' && !s.startsWith('{') ? i : -1)).filter((i) => i >= 0);
  const first = literals[0]!;
  const last = literals[literals.length - 1]!;
  const mixed = (s: string) => [...s].map((c, i) => (i % 2 === 1 ? c.toUpperCase() : c)).join('');
  const variant = (index: number, change: (s: string) => string) => segments.map((s, i) => (i === index ? change(s) : s)).join('/');
  return [variant(first, (s) => s.toUpperCase()), variant(last, mixed)];
}


describe('GET /api/v1/... with the letter case of the path changed', () => {
  it('when a key limited to workspace:read asks for any list or export, answers 404 (4040), never the data', async () => {
    expect(lists.length).toBeGreaterThanOrEqual(18);
    for (const template of lists) {
      const ws = await createTestWorkspace(server.store);
      const limited = await createTestKey(server.store, ws, { scopes: ['workspace:read'] });
      for (const path of caseVariants(template)) {
        const res = await send(server.url, { path, key: limited.key });
        expect([path, res.status, res.body]).toEqual([path, 404, noRoute('GET', path)]);
      }
    }
  });

  it('when a key with every scope asks for a single item, answers 404 (4040), not 500', async () => {
    for (const template of singleItems) {
      const ws = await createTestWorkspace(server.store);
      for (const path of caseVariants(template).map(filled)) {
        const res = await send(server.url, { path, key: ws.key });
        expect([path, res.status, res.body]).toEqual([path, 404, noRoute('GET', path)]);
      }
    }
  });

  it('when /api/v1 itself or /me changes case, answers 404 (4040)', async () => {
    const ws = await createTestWorkspace(server.store);
    for (const path of ['/api/V1/me', '/API/v1/me', '/api/v1/ME', '/api/v1/Me']) {
      const res = await send(server.url, { path, key: ws.key });
      expect([path, res.status, res.body]).toEqual([path, 404, noRoute('GET', path)]);
    }
  });
});

describe('GET /api/v1/... spelled with extra slashes or escapes', () => {
  it('when the path ends with /, holds //, or escapes a letter or a slash, answers 404 (4040) whatever the key\'s scopes', async () => {
    const ws = await createTestWorkspace(server.store);
    const limited = await createTestKey(server.store, ws, { scopes: ['workspace:read'] });
    const id = randomUUID();
    const paths = [
      '/api/v1/visibility/prompts/',
      '/api/v1/me/',
      `/api/v1/visibility/prompts/${id}/`,
      '/api/v1//visibility/prompts',
      '/api/v1/visibility//prompts',
      '/api/v1/%76isibility/prompts',
      '/api/v1/visibility/%70rompts',
      '/api/v1/%6De',
      '/api/v1/visibility%2Fprompts',
    ];
    for (const key of [limited.key, ws.key]) {
      for (const path of paths) {
        const res = await send(server.url, { path, key });
        expect([path, res.status, res.body]).toEqual([path, 404, noRoute('GET', path)]);
      }
    }
  });

  it('when the path is exactly the contract\'s, still answers (the same key, the same data)', async () => {
    const ws = await createTestWorkspace(server.store);
    const limited = await createTestKey(server.store, ws, { scopes: ['workspace:read'] });
    expect((await send(server.url, { path: '/api/v1/workspace', key: limited.key })).status).toBe(200);
    expect((await send(server.url, { path: '/api/v1/visibility/prompts', key: ws.key })).status).toBe(200);
    expect((await send(server.url, { path: '/api/v1/visibility/prompts', key: limited.key })).status).toBe(403);
  });
});

describe('GET /api/v1/{a name every JavaScript object has}', () => {
  const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

  it('when a segment is a property of Object.prototype, answers 404 (4040), not 403 naming a function', async () => {
    const ws = await createTestWorkspace(server.store);
    const limited = await createTestKey(server.store, ws, { scopes: ['workspace:read'] });
    for (const name of names) {
      for (const path of [`/api/v1/${name}`, `/api/v1/${name}/prompts`, `/api/v1/visibility/${name}`]) {
        const res = await send(server.url, { path, key: limited.key });
        expect([path, res.status, res.body]).toEqual([path, 404, noRoute('GET', path)]);
      }
    }
  });

  it('when such a name takes the place of an id, answers 422 naming the parameter', async () => {
    const ws = await createTestWorkspace(server.store);
    for (const name of names) {
      const res = await send(server.url, { path: `/api/v1/visibility/prompts/${name}`, key: ws.key });
      expect(res.status).toBe(422);
      expect((res.body as { messages: string }).messages).toContain('path.prompt');
    }
  });
});
