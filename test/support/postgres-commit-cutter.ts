import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { startTestServerForThisTest, type TestServer } from './test-server.js';

/**
 * Where the connection to PostgreSQL breaks around the COMMIT of an idempotent write (the one
 * that follows the statement keeping its answer):
 * - `before`: the COMMIT never reaches the server, whose transaction then rolls back;
 * - `after`: the server commits, and its answer never reaches the service;
 * - `after-and-away`: as `after`, and the server then looks unreachable (new connections are
 *   refused) until `refuseNew(false)`.
 */
type CommitCut = 'before' | 'after' | 'after-and-away';

/** The statement that keeps an answer: the COMMIT after it is the write's own. */
const FINISH_MARK = Buffer.from("SET state = 'done'");
const COMMIT_QUERY = Buffer.from('COMMIT\0');

export interface PostgresCommitCutter {
  /** The database's address through the cutter. */
  url: string;
  /** Breaks the connection at the next idempotent COMMIT, as `cut` says. */
  cutNextCommit(cut: CommitCut): void;
  /** New connections are refused (the server looks unreachable) while true. */
  refuseNew(refuse: boolean): void;
  /** Breaks every open connection (with `refuseNew(true)`: the server went away). */
  dropConnections(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay between the service and PostgreSQL that reads the frontend's messages (a type byte
 * and a length, after the untyped start-up message) to find the COMMIT that follows the
 * statement keeping an idempotent answer, and breaks the connection there: the lost COMMIT a
 * network or a server restart causes, on a real server.
 */
async function startPostgresCommitCutter(target: string): Promise<PostgresCommitCutter> {
  const address = new URL(target);
  const sockets = new Set<Socket>();
  let pending: CommitCut | undefined;
  let refusing = false;

  const relay = (client: Socket): void => {
    if (refusing) {
      client.destroy();
      return;
    }
    const server = connect(Number(address.port || 5432), address.hostname);
    for (const s of [client, server]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    let buffered = Buffer.alloc(0);
    let started = false;
    let armed = false;
    let cutting: CommitCut | undefined;
    server.on('data', (chunk: Buffer) => {
      if (cutting !== undefined) {
        // The server has answered the COMMIT: it committed; the answer is lost on the way.
        if (cutting === 'after-and-away') refusing = true;
        client.destroy();
        server.destroy();
        return;
      }
      client.write(chunk);
    });
    server.on('close', () => client.destroy());
    client.on('close', () => server.destroy());
    client.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const headerLength = started ? 5 : 4;
        if (buffered.length < headerLength) return;
        const length = started ? buffered.readUInt32BE(1) + 1 : buffered.readUInt32BE(0);
        if (buffered.length < length) return;
        const message = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        started = true;
        if (message.includes(FINISH_MARK)) armed = pending !== undefined;
        if (armed && message[0] === 0x51 /* Q */ && message.subarray(5).equals(COMMIT_QUERY)) {
          cutting = pending;
          pending = undefined;
          armed = false;
          if (cutting === 'before') {
            client.destroy();
            server.destroy();
            return;
          }
        }
        server.write(message);
      }
    });
  };

  const listener: Server = createServer(relay);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((listener.address() as AddressInfo).port);
  return {
    url: url.toString(),
    cutNextCommit: (cut) => { pending = cut; },
    refuseNew: (refuse) => { refusing = refuse; },
    dropConnections: () => {
      for (const s of sockets) s.destroy();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}

/**
 * A test server (closed when the test ends) whose connections to the test's PostgreSQL database
 * pass through a cutter, and the store that reaches the database directly, for looking at it
 * while the cutter breaks the server's connections.
 */
export async function startTestServerThroughCutter(): Promise<{ server: TestServer; direct: Store; cutter: PostgresCommitCutter }> {
  const { store: direct } = await startTestServerForThisTest();
  const cutter = await startPostgresCommitCutter((direct as PostgresStore).pool.options.connectionString!);
  onTestFinished(() => cutter.close());
  const proxied = await openStore(cutter.url);
  onTestFinished(() => proxied.close());
  return { server: await startTestServerForThisTest({ store: proxied }), direct, cutter };
}
