import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { guideImage, guideNavigation, guidePageHtml, renderGuides } from '../docs/guide-pages.js';
import { buildReferenceDocument } from '../docs/reference-document.js';
import { once } from '@workspace-read-api/contract/once.js';

/**
 * Nothing on the page may come from, or go to, another origin: scripts, styles, fonts, images and
 * fetches are limited to the service itself. Redoc styles its components with injected <style>
 * elements (hence 'unsafe-inline' for styles only) and runs its search index in a blob: worker.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const page = (name: string) => new URL(`../docs/page/${name}`, import.meta.url);

// Redoc's sidebar footer shows its maker's logo from a CDN; the page must make no outside request,
// so the bundle is served with that one address replaced by an empty inline image.
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%221%22 height=%221%22/%3E';

function redocBundle(): string {
  const source = readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  return source.replaceAll(REDOC_CDN_LOGO, EMPTY_IMAGE);
}

function secure(res: Response, contentType: string, cache: string): Response {
  return res.set({
    'Content-Type': contentType,
    'Content-Security-Policy': DOCS_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': cache,
  });
}

/**
 * The interactive reference at GET /docs: Redoc's standalone bundle (served from node_modules)
 * rendering both APIs and the AsyncAPI events from a docs copy of the contract; and the guides of
 * docs/ at GET /docs/guides/{name}, rendered from their Markdown. Every page links the others.
 */
export function docsRouter(openapi: object, asyncapi?: object): Router {
  // Built on the first request that needs it, not with the app: the bundle is a megabyte, and
  // most apps (every test's) never serve the page.
  let reference: string | undefined;
  const referenceJson = () => (reference ??= JSON.stringify(buildReferenceDocument(openapi as Record<string, unknown>, asyncapi as Record<string, unknown> | undefined)));
  // Rendered on the first request for a page, not with the app, as the reference is.
  const guides = once(renderGuides);
  const html = once(() => readFileSync(page('index.html'), 'utf8').replace('<!-- guides -->', guideNavigation(guides().values())));
  // A Map, not an object: a name from the URL such as `constructor` must find nothing.
  const assets = new Map<string, { body: () => Buffer | string; type: string }>([
    ['redoc.standalone.js', { body: once(redocBundle), type: 'text/javascript; charset=utf-8' }],
    ['init.js', { body: once(() => readFileSync(page('init.js'), 'utf8')), type: 'text/javascript; charset=utf-8' }],
    ['docs.css', { body: once(() => readFileSync(page('docs.css'), 'utf8')), type: 'text/css; charset=utf-8' }],
  ]);

  const router = Router({ strict: true });
  router.get('/docs', (_req, res) => {
    secure(res, 'text/html; charset=utf-8', 'no-cache').send(html());
  });
  router.get('/docs/guides/:name', (req, res, next) => {
    // A Map again: only the names of the guides on disk find a page.
    const guide = guides().get(req.params.name);
    if (!guide) {
      next();
      return;
    }
    secure(res, 'text/html; charset=utf-8', 'no-cache').send(guidePageHtml(guide, guides().values()));
  });
  router.get('/docs/guides/images/:name', (req, res, next) => {
    const picture = guideImage(req.params.name);
    if (!picture) {
      next();
      return;
    }
    secure(res, 'image/png', 'public, max-age=3600').send(picture);
  });
  router.get('/docs/', (_req, res) => res.redirect(301, '/docs'));
  router.get('/docs/reference.json', (_req, res) => {
    secure(res, 'application/json; charset=utf-8', 'no-cache').send(referenceJson());
  });
  router.get('/docs/assets/:name', (req, res, next) => {
    const asset = assets.get(req.params.name);
    if (!asset) {
      next();
      return;
    }
    secure(res, asset.type, 'public, max-age=3600').send(asset.body());
  });
  // A name whose percent-escapes do not decode (`%ff`, `%`, an overlong `%c0%af`) names no guide
  // and no asset: the router's decoding error goes on to the same 404 as any unknown name.
  router.use((err: unknown, _req: Request, _res: Response, next: NextFunction) => {
    next(err instanceof URIError ? undefined : err);
  });
  return router;
}
