import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCS_CSP } from '../../../src/http/docs.js';
import { useTestServer } from '../../support/test-server.js';

type Json = Record<string, any>;
const generated = (name: string): Json | undefined => {
  const url = new URL(`../../../generated/${name}`, import.meta.url);
  return existsSync(url) ? (JSON.parse(readFileSync(url, 'utf8')) as Json) : undefined;
};

describe('GET /docs', () => {
  const server = useTestServer();

  it('when asked for the page, answers HTML that loads only the service\'s own assets, under a strict policy', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("default-src 'none'");
    expect(DOCS_CSP).toContain("script-src 'self'");
    const html = await res.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.filter((s) => !s!.startsWith('/') && !s!.startsWith('data:'))).toEqual([]);
    // Each of its assets is served, with the type a browser runs or applies it as.
    const served = await Promise.all(sources.filter((s) => s!.startsWith('/docs/assets/')).map(async (s) => {
      const asset = await fetch(`${server.url}${s}`);
      return [s, asset.status, asset.headers.get('content-type'), (await asset.text()).length > 0];
    }));
    expect(served).toEqual([
      ['/docs/assets/docs.css', 200, 'text/css; charset=utf-8', true],
      ['/docs/assets/redoc.standalone.js', 200, 'text/javascript; charset=utf-8', true],
      ['/docs/assets/init.js', 200, 'text/javascript; charset=utf-8', true],
    ]);
  });

  it('when asked for /docs/, redirects to the page for good', async () => {
    const res = await fetch(`${server.url}/docs/`, { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).toEqual([301, '/docs']);
  });

  it('when asked for the Redoc bundle, answers it without any address outside the service to load', async () => {
    const res = await fetch(`${server.url}/docs/assets/redoc.standalone.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await res.text()).not.toContain('cdn.redoc.ly');
  });

  it('when asked for the docs copy of the contract, answers every operation plus every webhook event', async () => {
    const res = await fetch(`${server.url}/docs/reference.json`);
    expect(res.status).toBe(200);
    const reference = (await res.json()) as Json;
    const openapi = generated('openapi.json')!;
    // The same operations, each description led by the requirement note (see the next test).
    const withoutNotes = structuredClone(reference.paths) as Json;
    for (const item of Object.values(withoutNotes)) {
      for (const op of Object.values(item as Json)) if (op?.description) op.description = op.description.replace(/^\*\*Requires\*\* [^\n]*\n\n/, '');
    }
    expect(withoutNotes).toEqual(openapi.paths);
    const events = Object.values((generated('asyncapi.json')?.components?.messages ?? {}) as Json).map((m) => m.name);
    expect(Object.keys(reference.webhooks ?? {}).sort()).toEqual([...events].sort());
  });

  it('when asked for the docs copy, starts each operation\'s description with the scope or role its security requires', async () => {
    const reference = (await (await fetch(`${server.url}/docs/reference.json`)).json()) as Json;
    const notes = Object.fromEntries(Object.values(reference.paths as Json).flatMap((item) =>
      Object.values(item as Json).filter((op) => op?.operationId).map((op) => [op.operationId, op.description.split('\n')[0]])));
    expect(notes).toMatchObject({
      getMe: '**Requires** any API key of the workspace.',
      listPrompts: '**Requires** an API key with `visibility:read`.',
      getTopic: '**Requires** an API key with `contentmap:read`.',
      getWorkspaceUsage: '**Requires** an API key with `workspace:read`.',
      listApiKeys: '**Requires** a member token of a workspace owner.',
      listMembers: '**Requires** a member token of any member.',
      listWebhookEvents: '**Requires** a member token of any member, or any API key of the workspace.',
    });
    expect(Object.entries(notes).filter(([, note]) => !String(note).startsWith('**Requires** '))).toEqual([]);
  });

  it('when the published contract is fetched, it is the bundled document, untouched by the docs copy', async () => {
    const res = await fetch(`${server.url}/openapi.json`);
    expect(await res.json()).toEqual({ ...generated('openapi.json'), servers: [{ url: server.url, description: 'This service' }] });
  });

  it('when an asset does not exist, answers the 404 envelope', async () => {
    const res = await fetch(`${server.url}/docs/assets/nope.js`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 4040, messages: expect.any(String), data: null });
  });

  it('when an asset is named like a property every JavaScript object has, answers the 404 envelope', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await fetch(`${server.url}/docs/assets/${name}`);
      expect([name, res.status, await res.json()]).toEqual([name, 404, { code: 4040, messages: expect.any(String), data: null }]);
    }
  });
});
