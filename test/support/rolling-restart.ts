import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { freePort } from './free-port.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createTestKey, createTestWorkspace } from './accounts.js';
import { createTestMemberToken } from './admin.js';
import { send, type ObservedResponse } from './http.js';
import { createMigratedPostgresDatabase, dropPostgresDatabase } from './postgres.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { startReceiver, type TestReceiver } from './webhook-receiver.js';
import { createTestWebhook } from './webhooks.js';
import { until } from './wait.js';
import { acceptsConnections } from './raw-http.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(ROOT, 'bin/workspace-api.js');

/** The recipes' own instance ports and listening port, which a test replaces with free ones. */
const RECIPE_INSTANCE_PORTS = [3001, 3002, 3003];

/** Requests per rolling minute per workspace in this deployment: small, so the exact-limit check stays short. */
const QUOTA = 60;
/** Below the quota with room for retries: a client moves to a fresh workspace after this many requests. */
const REQUESTS_PER_WORKSPACE = 40;
/**
 * Clients per balancer, each waiting PAUSE_MS between its requests: about 3 requests a second
 * through each balancer, enough for every restart to have requests in flight through each (a
 * restart lasts DRAIN_DELAY_MS and a start, so each client sends at least two during it; the
 * counts show it per restart) with the instances' CPU kept for the restarts.
 */
const CLIENTS = 3;
const PAUSE_MS = 1_000;
/** How often a starting instance or balancer is asked whether it is up. */
const POLL_MS = 100;
/** How long an instance keeps serving after SIGTERM with /readyz answering 503: the recipes' value (deploy/haproxy.cfg says why). */
const DRAIN_DELAY_MS = 3_000;
/** The script that restarts the instances one at a time, as an operator runs it. */
const ROLLING_RESTART = path.join(ROOT, 'deploy/rolling-restart.sh');

/** Debian installs nginx and haproxy in /usr/sbin, which a user's PATH may lack. */
export function systemBinary(name: string): string {
  const inSbin = path.join('/usr/sbin', name);
  return existsSync(inSbin) ? inSbin : name;
}

/** A running process that stops with `stop()` (SIGTERM, then waiting for its exit). */
export interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

export function spawnChild(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Child {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal === null) process.stderr.write(`${command} exited ${code}: ${stderr}\n`);
  });
  return {
    process: child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A balancer the test starts in front of the instances' ports, listening on `port`; `statsUrl`: HAProxy's stats page. */
export interface Balancer {
  name: string;
  start(options: { port: number; instancePorts: readonly number[]; dir: string }): Promise<Child & { statsUrl?: string }>;
}

/**
 * The recipe at `file` (under deploy/) with its listening port and its instances' ports replaced:
 * the lines the recipe has for three instances become one per port given, as an operator edits it.
 */
export function recipeFor(file: string, listen: { from: RegExp; to: string }, instancePorts: readonly number[]): string {
  let text = readFileSync(path.join(ROOT, file), 'utf8').replace(listen.from, listen.to);
  RECIPE_INSTANCE_PORTS.forEach((recipePort, i) => {
    const port = instancePorts[i];
    if (port === undefined) throw new Error('one port per instance of the recipe');
    expect(text).toContain(`127.0.0.1:${recipePort}`);
    text = text.replace(`127.0.0.1:${recipePort}`, `127.0.0.1:${port}`);
  });
  return text;
}

/** Waits until `port` accepts connections. */
async function listening(port: number, what: string): Promise<void> {
  await until(() => acceptsConnections(port), 30_000, what, POLL_MS);
}

interface Outcome {
  kind: 'get' | 'post';
  first: number;
  final: number;
  retried: boolean;
  replayed: boolean;
  /** The body of a final answer that is not a success, to say who refused. */
  refusal?: string;
}

/** One client's request: a 502 or 503 is sent again once, after a short wait, with the same Idempotency-Key. */
async function requestWithOneRetry(url: string, spec: Parameters<typeof send>[1], kind: Outcome['kind']): Promise<Outcome> {
  const attempt = (): Promise<ObservedResponse> => send(url, spec).catch(() => ({ status: 0, headers: new Headers(), body: undefined, text: '' }));
  const first = await attempt();
  if (![0, 502, 503].includes(first.status)) return { kind, first: first.status, final: first.status, retried: false, replayed: false };
  await new Promise((resolve) => setTimeout(resolve, 300));
  const second = await attempt();
  const outcome: Outcome = { kind, first: first.status, final: second.status, retried: true, replayed: second.headers.get('idempotent-replayed') === 'true' };
  return second.status >= 300 || second.status < 200 ? { ...outcome, refusal: `${first.text.slice(0, 200)} | ${second.text.slice(0, 200)}` } : outcome;
}

interface Deployment {
  databaseUrl: string;
  redis: RedisServer;
  admin: Store;
  instancePorts: number[];
  instances: Child[];
  dir: string;
}

/** What every instance runs with, as the environment of `serve`. */
function instanceEnv(deployment: Deployment, keyPrefix: string): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: deployment.databaseUrl,
    DATABASE_POOL_MAX: '4',
    REDIS_URL: deployment.redis.url,
    REDIS_KEY_PREFIX: keyPrefix,
    // A busy machine (other work on the same cores) must not turn a slow reply into a 503.
    REDIS_COMMAND_TIMEOUT_MS: '2000',
    RATE_LIMIT_QUOTA: String(QUOTA),
    DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
    TRUST_PROXY: 'loopback',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // Nothing goes through the outbox here (a test delivery is sent at once): the dispatcher's
    // claims every 100 ms would only spend the instances' and PostgreSQL's CPU.
    WEBHOOK_POLL_INTERVAL_MS: '2000',
    LOG_LEVEL: 'warn',
  };
}

function startInstance(deployment: Deployment, index: number, keyPrefix: string): Child {
  const port = deployment.instancePorts[index]!;
  const child = spawnChild(process.execPath, [CLI, 'serve', '--port', String(port), '--host', '127.0.0.1'], instanceEnv(deployment, keyPrefix));
  // Where deploy/rolling-restart.sh finds the process to stop.
  writeFileSync(path.join(deployment.dir, 'pids', `${port}.pid`), String(child.process.pid));
  return child;
}

/** Stops the instance whose process id `PORT.pid` holds (those deploy/rolling-restart.sh started are no child of the test's). */
async function stopByPidFile(deployment: Deployment, port: number): Promise<void> {
  const pid = Number(readFileSync(path.join(deployment.dir, 'pids', `${port}.pid`), 'utf8'));
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  // A second signal skips what is left of the drain delay.
  for (const _ of [1, 2]) if (alive()) process.kill(pid, 'SIGTERM');
  await until(() => !alive(), 30_000, `instance ${pid} on ${port} gone`, POLL_MS);
}

/**
 * deploy/rolling-restart.sh over the deployment's instances (their pid files), waiting for HAProxy
 * to mark each new one up on `statsUrl`; resolves with the script's output once it exits 0.
 * `onLine` hears each line as it is printed.
 */
function runRollingRestart(deployment: Deployment, keyPrefix: string, statsUrl: string | undefined, onLine: (line: string) => void): Promise<string> {
  const script = spawn('sh', [ROLLING_RESTART], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...instanceEnv(deployment, keyPrefix),
      INSTANCES: deployment.instancePorts.join(' '),
      PID_DIR: path.join(deployment.dir, 'pids'),
      START: `exec "${process.execPath}" "${CLI}" serve --port "$PORT" --host 127.0.0.1`,
      ...(statsUrl ? { HAPROXY_STATS_URL: statsUrl, HAPROXY_SERVERS: 'instance1 instance2 instance3' } : {}),
      STOP_TIMEOUT: '60',
      READY_TIMEOUT: '90',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop()!;
    lines.forEach(onLine);
  };
  script.stdout.on('data', collect);
  script.stderr.on('data', collect);
  return new Promise((resolve, reject) => {
    script.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`deploy/rolling-restart.sh exited ${code}:\n${output}`))));
  });
}

async function ready(port: number): Promise<void> {
  await until(async () => (await send(`http://127.0.0.1:${port}`, { path: '/readyz' }).catch(() => ({ status: 0 }))).status === 200, 90_000, `instance on ${port} ready`, POLL_MS);
}

/**
 * Three instances (spawned `serve` from dist/) over one PostgreSQL database and one Redis behind
 * every balancer of `balancers` at once, restarted one after the other (SIGTERM with
 * DRAIN_DELAY_MS, then started again on the same port) while clients send a steady mix of
 * GET /api/v1/me and POST …/webhooks/{id}/test with an Idempotency-Key through each balancer, each
 * client in a workspace of its own. One deployment serves all the recipes: each sees every restart,
 * and the instances, the database and Redis are started once. Checks, per balancer, that every
 * restart had requests in flight through it, that every request ends in one success (after at
 * most one retry of a 502 or 503 under the same key), that no POST acted twice (the receiver got
 * one test delivery per POST), that the limit is exact through it, and that /openapi.json names
 * its address; logs the counts.
 */
export async function rollingRestartBehind(balancers: readonly Balancer[]): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-balancers-'));
  const databaseUrl = await createMigratedPostgresDatabase('wsapi_deploy');
  const redis = await startRedisServer();
  // One receiver per balancer, so each one's test deliveries are counted against its own POSTs.
  const receivers = await Promise.all(balancers.map(() => startReceiver()));
  const admin = await openStore(databaseUrl);
  const deployment: Deployment = {
    databaseUrl, redis, admin, dir,
    instancePorts: await Promise.all(RECIPE_INSTANCE_PORTS.map(() => freePort())),
    instances: [],
  };
  const keyPrefix = `deploy:${randomUUID()}:`;
  const fronts: Array<Child & { statsUrl?: string }> = [];
  mkdirSync(path.join(dir, 'pids'));
  try {
    deployment.instances = deployment.instancePorts.map((_, i) => startInstance(deployment, i, keyPrefix));
    await Promise.all(deployment.instancePorts.map(ready));
    const urls: string[] = [];
    for (const balancer of balancers) {
      const port = await freePort();
      // Each balancer's own directory, with the logs/ and tmp/ nginx writes under its prefix.
      const own = path.join(dir, balancer.name);
      mkdirSync(path.join(own, 'logs'), { recursive: true });
      mkdirSync(path.join(own, 'tmp'), { recursive: true });
      fronts.push(await balancer.start({ port, instancePorts: deployment.instancePorts, dir: own }));
      await listening(port, `${balancer.name} on ${port}`);
      const url = `http://127.0.0.1:${port}`;
      const published = await send(url, { path: '/openapi.json' });
      expect((published.body as { servers: Array<{ url: string }> }).servers[0]!.url, balancer.name).toBe(url);
      urls.push(url);
    }

    const newClient = async (receiver: TestReceiver) => {
      const workspace = await createTestWorkspace(admin);
      const { key } = await createTestKey(admin, workspace);
      const { token } = await createTestMemberToken(admin, workspace);
      const webhook = await createTestWebhook(admin, workspace, { url: receiver.url });
      return { workspace, key, token, webhookId: webhook.id };
    };

    let restarting = true;
    // Per balancer: every outcome, and the requests sent so far.
    const through = balancers.map(() => ({ outcomes: [] as Outcome[], sent: 0 }));
    const load = balancers.flatMap((_, b) => Array.from({ length: CLIENTS }, async (_, c) => {
      const mine = through[b]!;
      let client = await newClient(receivers[b]!);
      for (let n = 0; restarting; n += 1) {
        if (n > 0 && n % REQUESTS_PER_WORKSPACE === 0) client = await newClient(receivers[b]!);
        const post = (n + c) % 2 === 1;
        mine.sent += 1;
        mine.outcomes.push(await (post
          ? requestWithOneRetry(urls[b]!, {
            method: 'POST',
            path: `/api/workspace/${client.workspace.workspaceId}/webhooks/${client.webhookId}/test`,
            body: { event: 'content.status_updated' },
            headers: { 'Idempotency-Key': randomUUID() },
            key: client.token,
          }, 'post')
          : requestWithOneRetry(urls[b]!, { path: '/api/v1/me', key: client.key }, 'get')));
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
    }));

    // The restarts as an operator makes them: deploy/rolling-restart.sh, one instance at a time,
    // each new one ready and marked up by HAProxy before the next stops. Requests sent through
    // each balancer from an instance's SIGTERM until the script says it is ready again:
    const duringRestarts: number[][] = balancers.map(() => []);
    let before: number[] = [];
    const log = await runRollingRestart(deployment, keyPrefix, fronts.find((f) => f.statsUrl)?.statsUrl, (line) => {
      if (/: SIGTERM, draining$/.test(line)) before = through.map((t) => t.sent);
      if (/\): ready$/.test(line)) through.forEach((t, b) => duringRestarts[b]!.push(t.sent - before[b]!));
    });
    process.stdout.write(log);
    expect(log).toContain('every instance restarted');
    expect(duringRestarts.map((d) => d.length)).toEqual(balancers.map(() => deployment.instancePorts.length));
    restarting = false;
    await Promise.all(load);

    for (const [b, balancer] of balancers.entries()) {
      const { outcomes } = through[b]!;
      const posts = outcomes.filter((o) => o.kind === 'post');
      const counts = {
        balancer: balancer.name,
        sent: outcomes.length,
        sent_during_each_restart: duringRestarts[b],
        answered: outcomes.filter((o) => o.final >= 200 && o.final < 300).length,
        retried: outcomes.filter((o) => o.retried).length,
        retried_and_replayed: outcomes.filter((o) => o.replayed).length,
        first_answers_retried: Object.fromEntries([...new Set(outcomes.filter((o) => o.retried).map((o) => `${o.kind} ${o.first}`))]
          .map((k) => [k, outcomes.filter((o) => o.retried && `${o.kind} ${o.first}` === k).length])),
        posts: posts.length,
        test_deliveries: receivers[b]!.requests.length,
        doubled_writes: receivers[b]!.requests.length - posts.length,
      };
      process.stdout.write(`rolling restart behind ${balancer.name}: ${JSON.stringify(counts)}\n`);
      expect(outcomes.filter((o) => o.final < 200 || o.final >= 300), balancer.name).toEqual([]);
      expect(counts.answered, balancer.name).toBe(counts.sent);
      expect(counts.doubled_writes, balancer.name).toBe(0);
      // Every restart had requests in flight through this balancer: at least one per client.
      for (const n of duringRestarts[b]!) expect(n, `${balancer.name}: requests during a restart`).toBeGreaterThanOrEqual(CLIENTS);
    }

    // The limit through each balancer, with every instance back: exactly QUOTA of a burst admitted.
    for (const [b, balancer] of balancers.entries()) {
      const fresh = await createTestWorkspace(admin);
      const { key } = await createTestKey(admin, fresh);
      const burst = await Promise.all(Array.from({ length: QUOTA + 15 }, () => requestWithOneRetry(urls[b]!, { path: '/api/v1/me', key }, 'get')));
      expect(burst.filter((r) => r.final === 200), balancer.name).toHaveLength(QUOTA);
      expect(burst.filter((r) => r.final === 429), balancer.name).toHaveLength(15);
    }
  } finally {
    for (const front of fronts) await front.stop();
    await Promise.all(deployment.instances.map((i) => i.stop()));
    // The instances the script started, by their pid files (those the test started are stopped above).
    await Promise.all(deployment.instancePorts.map((port) => stopByPidFile(deployment, port).catch(() => undefined)));
    await admin.close();
    await Promise.all(receivers.map((r) => r.close()));
    await redis.remove();
    await dropPostgresDatabase(databaseUrl).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `text` into the test's directory as `name`, for the balancer to read. */
export function writeConfig(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}
