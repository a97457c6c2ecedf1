// A benchmark server in its own process, so the load generator and the server do not share an
// event loop. `full`: the real service (startServer: logging to a file, authentication, the
// rate limiter with its quota raised by configuration, scope and subscription checks, contract
// validation, dispatch). `bare`: node:http answering the same three routes (`/me`, a prompt's
// analytics, the prompt list) with the same store and analytics code and nothing else: the
// same-SQL ceiling. `bytes`: node:http answering, for each path, the exact bytes and content type
// the full service answered (read from a JSON file: path → { contentType, body in base64 }) and
// doing nothing else: the ceiling of the machine's HTTP stack.
// Usage: tsx bench/support/prompt-servers.ts full|bare DATABASE WORKSPACE_ID LOG_FILE
//        tsx bench/support/prompt-servers.ts bytes ANSWERS_JSON
// Prints one JSON line {"url": ...} once listening; stops on SIGTERM.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { openSqliteStore } from '../../src/store/index.js';
import { readPromptAnalytics, readPromptList } from '../../src/analytics/prompt-reads.js';
import type { RangeValue } from '../../src/analytics/periods.js';
import { checkApiKey } from '../../src/keys/api-keys.js';
import { getMe } from '../../src/handlers/me.js';
import { readFileSync } from 'node:fs';
import { Cursors } from '../../src/pagination/cursor.js';

const CURSORS = new Cursors(randomBytes(32).toString('base64url'));

const [mode, databasePath, workspaceId, logFile] = process.argv.slice(2) as [string, string, string, string];
const PROMPT_PATH = /^\/api\/v1\/visibility\/prompts\/([0-9a-f-]{36})$/;

async function full(): Promise<{ url: string; close: () => Promise<void> }> {
  const config = loadConfig({
    ...process.env,
    DATABASE_PATH: databasePath,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_FILE: logFile,
    LOG_LEVEL: 'info',
    // Every request of the run is admitted and still goes through the limiter's bookkeeping.
    RATE_LIMIT_QUOTA: '1000000000',
  });
  const running = await startServer(config);
  return { url: running.url, close: running.close };
}

async function bare(): Promise<{ url: string; close: () => Promise<void> }> {
  const store = openSqliteStore(databasePath);
  return listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const range = (url.searchParams.get('range') ?? '30d') as RangeValue;
    const match = PROMPT_PATH.exec(url.pathname);
    let data: unknown;
    if (url.pathname === '/api/v1/me') {
      // The key's lookup is /me's only SQL; the body is the handler's own.
      const presented = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      const check = await checkApiKey(store, presented, new Date());
      if (check.ok) {
        const answer = await getMe({ caller: { kind: 'api_key', principal: check.principal } } as Parameters<typeof getMe>[0]);
        if ('body' in answer) data = answer.body.data;
      }
    } else if (match) {
      data = await readPromptAnalytics(store, { workspaceId, promptId: match[1]!, range, alpha: 0.05, now: new Date() });
    } else if (url.pathname === '/api/v1/visibility/prompts') {
      data = await readPromptList(store, CURSORS, { workspaceId, range, alpha: 0.05, limit: Number(url.searchParams.get('limit') ?? 25), order: 'created_at', now: new Date() });
    }
    const body = JSON.stringify(data === undefined ? { code: 4040, messages: 'Not found.', data: null } : { code: 2000, messages: 'OK', data });
    res.writeHead(data === undefined ? 404 : 200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }, () => store.db.close());
}

async function bytes(): Promise<{ url: string; close: () => Promise<void> }> {
  const answers = new Map(Object.entries(JSON.parse(readFileSync(databasePath, 'utf8')) as Record<string, { contentType: string; body: string }>)
    .map(([requestPath, answer]) => [requestPath, { contentType: answer.contentType, body: Buffer.from(answer.body, 'base64') }]));
  return listen((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (answer === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': answer.contentType, 'content-length': answer.body.length });
    res.end(answer.body);
  }, () => undefined);
}

async function listen(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void,
  closed: () => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((err: unknown) => res.destroy(err as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        closed();
        resolve();
      });
    }),
  };
}

const modes: Record<string, () => Promise<{ url: string; close: () => Promise<void> }>> = { full, bare, bytes };
const running = Object.hasOwn(modes, mode) ? await modes[mode]!() : undefined;
if (!running) {
  console.error('usage: prompt-servers.ts full|bare DATABASE WORKSPACE_ID LOG_FILE, or bytes ANSWERS_JSON');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
process.once('SIGTERM', () => {
  void running.close().then(() => process.exit(0));
});
