import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { isIP } from 'node:net';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import type { Html } from './html.js';
import { AdminApi } from './admin-api.js';
import { clearCookie, readCookie, SESSION_COOKIE, setCookie } from './cookies.js';
import { CSRF_FIELD, csrfTokenFor, csrfTokenMatches, preSessionSecret, presentedPreSession } from './csrf.js';
import { consoleSecurityHeaders } from './security-headers.js';
import type { BodyDefault, ConsoleContext, ConsoleRoute, FormBody } from './console-context.js';
import { publicPage, notice } from './layout.js';
import { linkPage, refusedPage, signInPage } from './pages/sign-in.js';
import * as keys from './pages/keys.js';
import * as webhooks from './pages/webhooks.js';
import * as members from './pages/members.js';
import { overview } from './pages/overview.js';
import { auditLog } from './pages/audit.js';
import { ServiceError } from '../errors/service-error.js';
import { refuseAuthentication } from '../http/guards/authenticate.js';
import type { RateLimiter } from '../http/rate-limit/rate-limiter.js';
import {
  checkConsoleSession, endConsoleSession, signInWithLink, signInWithToken,
  type ConsoleSessionTimeouts, type RequestOrigin, type SignInOutcome,
} from '../keys/console-sessions.js';
import type { Store } from '../store/index.js';

export interface ConsoleDeps {
  store: Store;
  logger: Logger;
  now: () => Date;
  /** The failed-authentication limit per client address the APIs use: failed sign-ins count against it too. */
  clientLimiter: RateLimiter;
  timeouts: ConsoleSessionTimeouts;
  /** The app's server object, through which the console calls the administration API in process. */
  server: () => Server;
  /** The defaults the app's contract gives the administration API's body properties. */
  bodyDefault: BodyDefault;
}

const asset = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

/** The client's address is on this machine (IPv4, IPv6 or IPv4-mapped loopback). */
function isLoopback(address: string | undefined): boolean {
  if (address === undefined || isIP(address) === 0) return false;
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}

/**
 * The request came over TLS (as `TRUST_PROXY`'s proxies say, through Express's `req.secure`), or
 * from this machine: a session cookie never crosses a network in clear text.
 */
function transportAllowsSignIn(req: Request): boolean {
  return req.secure || isLoopback(req.ip);
}

const PLAIN_HTTP = 'Signing in needs HTTPS: this request came over plain HTTP from another machine. '
  + 'Open the console through its HTTPS address (behind a proxy that terminates TLS, set TRUST_PROXY so the service knows).';

/** The client's address and the request's id, for the audit log. */
function originOf(req: Request, res: Response): RequestOrigin {
  const requestId = res.getHeader('X-Request-Id');
  return { address: req.ip, requestId: typeof requestId === 'string' ? requestId : undefined };
}

function send(res: Response, status: number, page: Html): void {
  res.status(status).type('html').send(page.text);
}

/** The console's pages under /console: sign-in, then every page of a signed-in member (docs/owners.md). */
export function consoleRouter(deps: ConsoleDeps): Router {
  const router = Router({ caseSensitive: true, strict: false });
  const script = asset('console.js');
  const styles = asset('console.css');
  const readForm = express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 200 });

  router.use('/console', consoleSecurityHeaders());
  router.get('/console/assets/console.js', (_req, res) => {
    res.type('text/javascript').send(script);
  });
  router.get('/console/assets/console.css', (_req, res) => {
    res.type('text/css').send(styles);
  });

  /** A refused sign-in: counted against the client's address like a failed API authentication, 429 past the limit. */
  const refuseSignIn = async (req: Request, res: Response, reason: string, render: (problem: string) => Html): Promise<void> => {
    const refusal = await refuseAuthentication(req, deps.clientLimiter, deps.now(), new ServiceError('KEY_INVALID', reason));
    res.set(refusal.headers);
    send(res, refusal.status, render(refusal.message));
  };

  /** The session cookie for a started session, then the overview. */
  const startSession = (res: Response, outcome: Extract<SignInOutcome, { ok: true }>): void => {
    setCookie(res, SESSION_COOKIE, outcome.session.secret, Math.floor(deps.timeouts.absoluteMs / 1000));
    deps.logger.info({ session_id: outcome.session.member.session_id, user_id: outcome.session.member.user_id, method: outcome.session.method }, 'console sign-in');
    res.redirect(303, '/console');
  };

  router.get('/console/sign-in', (req, res) => {
    const secret = preSessionSecret(req, res);
    send(res, 200, signInPage(csrfTokenFor(secret), undefined, transportAllowsSignIn(req) ? undefined : PLAIN_HTTP));
  });

  router.post('/console/sign-in', readForm, async (req, res) => {
    const form = (req.body ?? {}) as FormBody;
    const pre = presentedPreSession(req);
    const again = (problem: string): Html => signInPage(csrfTokenFor(preSessionSecret(req, res)), problem);
    if (!csrfTokenMatches(pre, form[CSRF_FIELD])) {
      send(res, 403, again('The form expired or did not come from this console (its CSRF token is missing or wrong). Sign in again.'));
      return;
    }
    if (!transportAllowsSignIn(req)) {
      send(res, 403, again(PLAIN_HTTP));
      return;
    }
    const token = typeof form.token === 'string' ? form.token.trim() : '';
    const outcome = await signInWithToken(deps.store, token, originOf(req, res), deps.now());
    if (!outcome.ok) {
      await refuseSignIn(req, res, outcome.reason, again);
      return;
    }
    startSession(res, outcome);
  });

  router.get('/console/link/:token', (req, res) => {
    const secret = preSessionSecret(req, res);
    send(res, 200, linkPage(`/console/link/${encodeURIComponent(String(req.params.token))}`, csrfTokenFor(secret)));
  });

  router.post('/console/link/:token', readForm, async (req, res) => {
    const form = (req.body ?? {}) as FormBody;
    if (!csrfTokenMatches(presentedPreSession(req), form[CSRF_FIELD])) {
      const secret = preSessionSecret(req, res);
      send(res, 403, linkPage(`/console/link/${encodeURIComponent(String(req.params.token))}`, csrfTokenFor(secret)));
      return;
    }
    if (!transportAllowsSignIn(req)) {
      send(res, 403, refusedPage('Sign in with a link', PLAIN_HTTP));
      return;
    }
    const outcome = await signInWithLink(deps.store, String(req.params.token), originOf(req, res), deps.now());
    if (!outcome.ok) {
      await refuseSignIn(req, res, outcome.reason, (problem) => refusedPage('Sign in with a link', problem));
      return;
    }
    startSession(res, outcome);
  });

  /** Resolves the session on every request; without one, the sign-in page. */
  const signedIn = (route: ConsoleRoute, options: { write: boolean }): RequestHandler => async (req, res) => {
    const secret = readCookie(req, SESSION_COOKIE);
    const now = deps.now();
    const check = secret === undefined ? undefined : await checkConsoleSession(deps.store, secret, now, deps.timeouts);
    if (secret === undefined || !check?.ok) {
      if (secret !== undefined) clearCookie(res, SESSION_COOKIE);
      const pre = preSessionSecret(req, res);
      send(res, 401, signInPage(csrfTokenFor(pre), check && !check.ok && check.reason !== 'No session.' ? check.reason : 'Sign in to continue.'));
      return;
    }
    const csrf = csrfTokenFor(secret);
    const form = (req.body ?? {}) as FormBody;
    if (options.write && !csrfTokenMatches(secret, form[CSRF_FIELD])) {
      send(res, 403, publicPage('Refused', notice('error', 'The form expired or did not come from this console (its CSRF token is missing or wrong). Go back, reload the page and try again.')));
      return;
    }
    const requestId = res.getHeader('X-Request-Id');
    const context: ConsoleContext = {
      req,
      res,
      member: check.member,
      csrf,
      form,
      api: new AdminApi(deps.server(), check.member.workspace_id, secret, req.ip, typeof requestId === 'string' ? requestId : undefined),
      bodyDefault: deps.bodyDefault,
    };
    const answer = await route(context);
    if ('redirect' in answer) {
      res.redirect(303, answer.redirect);
      return;
    }
    send(res, answer.status ?? 200, answer.page);
  };
  const view = (path: string, route: ConsoleRoute) => router.get(path, signedIn(route, { write: false }));
  const write = (path: string, route: ConsoleRoute) => router.post(path, readForm, signedIn(route, { write: true }));

  router.post('/console/sign-out', readForm, signedIn(async (c) => {
    await endConsoleSession(deps.store, c.member, originOf(c.req, c.res), deps.now());
    clearCookie(c.res, SESSION_COOKIE);
    deps.logger.info({ session_id: c.member.session_id, user_id: c.member.user_id }, 'console sign-out');
    return { redirect: '/console/sign-in' };
  }, { write: true }));

  view('/console', overview);
  view('/console/keys', keys.listKeys);
  write('/console/keys', keys.createKey);
  view('/console/keys/:keyId', keys.showKey);
  write('/console/keys/:keyId', keys.updateKey);
  view('/console/keys/:keyId/revoke', keys.confirmRevokeKey);
  write('/console/keys/:keyId/revoke', keys.revokeKey);

  view('/console/webhooks', webhooks.listWebhooks);
  write('/console/webhooks', webhooks.createWebhook);
  view('/console/webhooks/:webhookId', webhooks.showWebhook);
  write('/console/webhooks/:webhookId', webhooks.updateWebhook);
  write('/console/webhooks/:webhookId/enable', webhooks.enableWebhook);
  write('/console/webhooks/:webhookId/disable', webhooks.disableWebhook);
  write('/console/webhooks/:webhookId/rotate-secret', webhooks.rotateWebhookSecret);
  write('/console/webhooks/:webhookId/test', webhooks.testWebhook);
  view('/console/webhooks/:webhookId/delete', webhooks.confirmDeleteWebhook);
  write('/console/webhooks/:webhookId/delete', webhooks.deleteWebhook);
  view('/console/webhooks/:webhookId/deliveries/:deliveryId', (c) => webhooks.showDelivery(c));
  write('/console/webhooks/:webhookId/deliveries/:deliveryId/redeliver', webhooks.redeliver);

  view('/console/audit', auditLog);
  view('/console/members', members.listMembers);
  write('/console/members/:userId', members.updateMember);
  view('/console/members/:userId/remove', members.confirmRemoveMember);
  write('/console/members/:userId/remove', members.removeMember);

  router.use('/console', (_req, res) => {
    send(res, 404, publicPage('Not found', notice('error', 'There is no console page at this address.')));
  });
  router.use('/console', ((err, _req, res, _next) => {
    deps.logger.error({ err }, 'console page failed');
    if (res.headersSent) return;
    const status = err instanceof ServiceError ? err.status : 500;
    send(res, status, publicPage('Something went wrong', notice('error', err instanceof ServiceError ? err.message : 'The console could not show this page. Try again; if it keeps failing, tell the operator (the request id is in the X-Request-Id header).')));
  }) as express.ErrorRequestHandler);
  return router;
}
