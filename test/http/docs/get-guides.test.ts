import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOCS_CSP } from '../../../src/http/docs.js';
import { useTestServer } from '../../support/test-server.js';

const DOCS_DIR = new URL('../../../docs/', import.meta.url);
/** The guides as the repository holds them: every docs/*.md but its README, and the root README as `readme`. */
const GUIDES = ['readme', ...readdirSync(DOCS_DIR).filter((f) => f.endsWith('.md') && f !== 'README.md').map((f) => f.slice(0, -3))];
const firstHeading = (name: string) =>
  /^# (.+)$/m.exec(readFileSync(name === 'readme' ? new URL('../README.md', DOCS_DIR) : new URL(`${name}.md`, DOCS_DIR), 'utf8'))![1]!.replace(/`/g, '');
const hrefsOf = (html: string) => [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

describe('GET /docs/guides/{name}', () => {
  const server = useTestServer();
  const pages = new Map<string, string>();
  beforeAll(async () => {
    for (const name of GUIDES) pages.set(name, await (await fetch(`${server.url}/docs/guides/${name}`)).text());
  });

  it('answers every guide of docs/ as HTML under the reference page\'s policy, titled by its first heading', async () => {
    expect(GUIDES).toEqual(expect.arrayContaining(['client-teams', 'integrators', 'backend-developers', 'qa', 'operators', 'data-producers']));
    for (const name of GUIDES) {
      const res = await fetch(`${server.url}/docs/guides/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const html = await res.text();
      expect(html, name).toContain(`<title>${firstHeading(name).replaceAll('&', '&amp;')} · Workspace Read API</title>`);
      // Loads nothing but the service's own stylesheet and the pictures of docs/images/; no script at all.
      const loaded = [...html.matchAll(/<(?:link|script|img)[^>]*(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      const pictures = loaded.filter((u) => u.startsWith('/docs/guides/images/'));
      expect(loaded.filter((u) => !pictures.includes(u))).toEqual(['data:,', '/docs/assets/docs.css']);
      for (const picture of pictures) {
        const image = await fetch(`${server.url}${picture}`);
        expect({ picture, status: image.status, type: image.headers.get('content-type') }).toEqual({ picture, status: 200, type: 'image/png' });
        await image.arrayBuffer();
      }
      expect(html).not.toContain('<script');
    }
  });

  it('links each guide to the reference, and every link between pages to a page and a heading that exist', () => {
    const ids = new Map([...pages].map(([name, html]) => [name, new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]))]));
    for (const [name, html] of pages) {
      const hrefs = hrefsOf(html);
      expect(hrefs, name).toContain('/docs');
      const broken = hrefs.flatMap((href) => {
        const inPage = href.startsWith('#') ? [name, href.slice(1)] : /^\/docs\/guides\/([^#]+)(?:#(.+))?$/.exec(href)?.slice(1);
        if (!inPage) return [];
        const [target, anchor] = inPage;
        return !ids.has(target!) || (anchor !== undefined && !ids.get(target!)!.has(anchor)) ? [href] : [];
      });
      expect(broken, name).toEqual([]);
      // A link written for the repository (another guide's .md, a source file) never reaches the page as it is.
      expect(hrefs.filter((h) => /\.md(#|$)|^\.\.?\//.test(h)), name).toEqual([]);
    }
    expect(hrefsOf(pages.get('operators')!)).toContain('/docs/guides/readme#configuration');
    expect(hrefsOf(pages.get('client-teams')!)).toContain('/docs/guides/integrators#incremental-sync-and-missed-events');
  });

  it('is linked from the reference page, each guide by its name', async () => {
    const hrefs = hrefsOf(await (await fetch(`${server.url}/docs`)).text());
    expect(hrefs.filter((h) => h.startsWith('/docs/guides/')).sort()).toEqual(GUIDES.map((g) => `/docs/guides/${g}`).sort());
  });

  it('serves the owners\' guide with its pictures, and no other file by a picture\'s address', async () => {
    const html = await (await fetch(`${server.url}/docs/guides/owners`)).text();
    expect(html).toContain('<img src="/docs/guides/images/console-keys.png"');
    for (const path of ['..%2Fowners.md', 'console-keys.PNG', 'console-keys.svg', 'missing.png', 'constructor']) {
      expect((await fetch(`${server.url}/docs/guides/images/${path}`)).status, path).toBe(404);
    }
  });

  it('when the name is no guide, answers the 404 envelope', async () => {
    for (const path of ['nope', 'constructor', 'README', 'Operators', '..%2Fpackage.json', 'operators.md', '']) {
      const res = await fetch(`${server.url}/docs/guides/${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual({ code: 4040, messages: expect.any(String), data: null });
    }
  });
});
