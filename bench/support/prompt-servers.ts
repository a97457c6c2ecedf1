// A benchmark server in its own process, so the load generator and the server do not share an
// event loop. `full`: the real service (startServer: logging to a file, authentication, the
// rate limiter with its quota raised by configuration, scope and subscription checks, contract
// validation, dispatch). `bare`: node:http answering the same two routes with the same store
// and analytics code and nothing else: the ceiling.
// Usage: tsx bench/support/prompt-servers.ts full|bare DATABASE WORKSPACE_ID LOG_FILE
// Prints one JSON line {"url": ...} once listening; stops on SIGTERM.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { openSqliteStore } from '../../src/store/index.js';
import { readPromptAnalytics, readPromptList } from '../../src/analytics/prompt-reads.js';
import type { RangeValue } from '../../src/analytics/periods.js';

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
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const range = (url.searchParams.get('range') ?? '30d') as RangeValue;
    const match = PROMPT_PATH.exec(url.pathname);
    let data: unknown;
    if (match) {
      data = await readPromptAnalytics(store, { workspaceId, promptId: match[1]!, range, now: new Date() });
    } else if (url.pathname === '/api/v1/visibility/prompts') {
      data = await readPromptList(store, { workspaceId, range, limit: Number(url.searchParams.get('limit') ?? 25), now: new Date() });
    }
    const body = JSON.stringify(data === undefined ? { code: 4040, messages: 'Not found.', data: null } : { code: 2000, messages: 'OK', data });
    res.writeHead(data === undefined ? 404 : 200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        store.db.close();
        resolve();
      });
    }),
  };
}

const running = mode === 'full' ? await full() : mode === 'bare' ? await bare() : undefined;
if (!running) {
  console.error('usage: prompt-servers.ts full|bare DATABASE WORKSPACE_ID LOG_FILE');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
process.once('SIGTERM', () => {
  void running.close().then(() => process.exit(0));
});
