import { createTestMember, createTestWorkspace, type TestWorkspace } from './accounts.js';
import { adminClient, createTestMemberToken, type AdminClient } from './admin.js';
import { startTestServerForThisTest, type TestServer, type TestServerOptions } from './test-server.js';

/**
 * A browser without a browser, for the console's HTTP tests: it keeps the cookies the console sets
 * (by name; attributes are the tests' business), follows nothing on its own, and reads the CSRF
 * token and the form keys of the last page it got.
 */
export interface ConsolePage {
  status: number;
  headers: Headers;
  html: string;
  /** `Location` of a redirect. */
  location: string | null;
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string, private readonly extraHeaders: Record<string, string> = {}) {}

  private cookieHeader(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/Max-Age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(method: string, path: string, form?: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<ConsolePage> {
    const body = form === undefined ? undefined
      : new URLSearchParams(Object.entries(form).flatMap(([k, v]): Array<[string, string]> => (Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v]])));
    const cookie = this.cookieHeader();
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...this.extraHeaders,
        ...(cookie === undefined ? {} : { cookie }),
        ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        ...headers,
      },
      body,
    });
    this.keep(res.headers);
    return { status: res.status, headers: res.headers, html: await res.text(), location: res.headers.get('location') };
  }

  get(path: string, headers?: Record<string, string>): Promise<ConsolePage> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, form: Record<string, string | string[]>, headers?: Record<string, string>): Promise<ConsolePage> {
    return this.request('POST', path, form, headers);
  }

  /** Signs in with a member token through the sign-in form, as a person does. */
  async signInWithToken(token: string): Promise<ConsolePage> {
    const form = await this.get('/console/sign-in');
    return this.post('/console/sign-in', { csrf: csrfOf(form.html), token });
  }
}

/** The CSRF token of the first form on the page. */
export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('no CSRF token on the page');
  return match[1];
}

/** The Idempotency-Key of the form that posts to `action`. */
export function formKeyOf(html: string, action: string): string {
  const start = html.indexOf(`action="${action}"`);
  const match = /name="idempotency_key" value="([^"]+)"/.exec(html.slice(start));
  if (start === -1 || !match?.[1]) throw new Error(`no form posting to ${action} with an idempotency key`);
  return match[1];
}

/** The text of the page without its markup, spaces collapsed. */
export function textOf(html: string): string {
  return html.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ');
}

/** A member of a fresh workspace, with the console and the administration API as that member. */
export interface ConsoleMember {
  server: TestServer;
  ws: TestWorkspace;
  /** The member's user id: the workspace's owner, unless `role` asked for another member. */
  userId: string;
  /** The member's token (a member token signs in to the console and calls the administration API). */
  token: string;
  /** The console as this member: signed in with the token, unless `signIn: false`. */
  browser: ConsoleClient;
  api: AdminClient;
}

/**
 * What most console tests start from: a fresh workspace on `on` (or on a server of the running test,
 * started with `server`), a member token for its owner (or, with `role`, for another member of that
 * role), and a console client signed in with it as a person does, through the sign-in form.
 */
export async function consoleMember(options: {
  on?: TestServer;
  server?: TestServerOptions;
  name?: string;
  role?: 'owner' | 'member';
  signIn?: boolean;
} = {}): Promise<ConsoleMember> {
  const server = options.on ?? await startTestServerForThisTest(options.server);
  const ws = await createTestWorkspace(server.store, { name: options.name });
  const userId = options.role === undefined ? ws.ownerId : await createTestMember(server.store, ws, options.role);
  const { token } = await createTestMemberToken(server.store, ws, userId);
  const browser = new ConsoleClient(server.url);
  if (options.signIn !== false) await browser.signInWithToken(token);
  return { server, ws, userId, token, browser, api: adminClient(server.url, ws.workspaceId, token) };
}
