// The outside world of the webhook delivery benchmark, in its own process: a fast receiver, a
// receiver that never answers, and a producer that writes status-change events into the service's
// database the way an import in another process does. Driven over IPC by webhook-delivery.bench.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openSqliteStore } from '../../src/store/index.js';
import { enqueueEvent } from '../../src/store/sqlite/outbox.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { SAMPLE_EVENT_DATA } from '../../src/webhooks/delivery/index.js';

/** A fresh article's `content.status_updated` data, shaped as the contract says. */
const publishedArticle = () => ({ ...SAMPLE_EVENT_DATA['content.status_updated'], id: crypto.randomUUID(), status: 'PUBLISHED' as const });

export type LoadCommand =
  | { type: 'burst'; dbFile: string; workspaceId: string; count: number }
  | { type: 'steady'; dbFile: string; workspaceId: string; perSecond: number; seconds: number }
  | { type: 'stats' }
  | { type: 'reset' };

export type LoadReply =
  | { type: 'ready'; fastUrl: string; hangingUrl: string }
  | { type: 'done' }
  | { type: 'produced'; count: number }
  | { type: 'stats'; received: number; latenciesMs: number[]; hangingRequests: number };

const seen = new Set<string>();
let latencies: number[] = [];
let hangingRequests = 0;

const fast = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const arrived = Date.now();
    const id = String(req.headers['webhook-id']);
    // The first attempt of each delivery: the time from the status change (the envelope's timestamp) to it.
    if (!seen.has(id)) {
      seen.add(id);
      const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      latencies.push(arrived - Date.parse(timestamp));
    }
    res.writeHead(204).end();
  });
});
fast.keepAliveTimeout = 60_000;
const hanging = http.createServer(() => {
  hangingRequests += 1;
});

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`)));
}

const stores = new Map<string, SqliteStore>();
function storeOf(file: string): SqliteStore {
  let store = stores.get(file);
  if (!store) {
    store = openSqliteStore(file);
    stores.set(file, store);
  }
  return store;
}

const send = (reply: LoadReply): void => {
  process.send!(reply);
};

process.on('message', (command: LoadCommand) => void answer(command));

async function answer(command: LoadCommand): Promise<void> {
  if (command.type === 'stats') {
    send({ type: 'stats', received: seen.size, latenciesMs: latencies, hangingRequests });
  } else if (command.type === 'reset') {
    seen.clear();
    latencies = [];
    send({ type: 'done' });
  } else if (command.type === 'burst') {
    const store = storeOf(command.dbFile);
    // One transaction for the whole burst, as an import writes its events: the SQLite outbox directly.
    store.db.transaction(() => {
      for (let i = 0; i < command.count; i += 1) {
        enqueueEvent(store.db, { workspaceId: command.workspaceId, type: 'content.status_updated', data: publishedArticle() });
      }
    })();
    send({ type: 'produced', count: command.count });
  } else if (command.type === 'steady') {
    // One event per transaction at a fixed rate, like status changes arriving one by one.
    const store = storeOf(command.dbFile);
    const total = command.perSecond * command.seconds;
    const started = Date.now();
    for (let i = 0; i < total; i += 1) {
      const due = started + (i * 1000) / command.perSecond;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await store.webhookDeliveries.enqueueEvent({ workspaceId: command.workspaceId, type: 'content.status_updated', data: publishedArticle() });
    }
    send({ type: 'produced', count: total });
  }
}

send({ type: 'ready', fastUrl: await listen(fast), hangingUrl: await listen(hanging) });
