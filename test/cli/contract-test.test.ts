import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateDemoData } from '../../src/demo/generate-demo-data.js';
import { importLines } from '../../src/import/import-ndjson.js';
import { createMemberToken } from '../../src/keys/member-tokens.js';
import { createTestWorkspace } from '../support/accounts.js';
import { SMALL_DEMO } from '../http/contract-test/demo-server.js';
import { firstJsonLine, jsonOf, runCli, spawnCli, tempDatabase } from './run-cli.js';
import { forgedCommandLines, HOSTILE_TEXT, startHostileServer, TERMINAL_CONTROLS, watchResidentSize, type HostileServer } from '../http/contract-test/hostile-server.js';

let db: ReturnType<typeof tempDatabase> | undefined;
afterEach(() => {
  db?.cleanup();
  db = undefined;
});

// Two real processes, as a QA team runs them: the service (`serve`) and the checker pointed at it.
// The whole run of every read against a served demo workspace is CI's smoke (.ci/smoke.sh); here the
// two processes talk over a few operations of both credentials: key reads with the lists their ids
// come from, an export, and a read of the administration API.
describe('workspace-api contract-test (spawned)', { timeout: 60_000 }, () => {
  const OPERATIONS = ['listPrompts', 'getPromptAnalytics', 'listAnswers', 'exportAnswers', 'listApiKeys'];

  it('checks a served database with demo data over HTTP: exit 0, JSON report, JUnit file', async () => {
    db = tempDatabase();
    const store = db.open();
    const workspace = await createTestWorkspace(store);
    await importLines(store, workspace.workspaceId, generateDemoData({ ...SMALL_DEMO, idNamespace: workspace.workspaceId }));
    const token = (await createMemberToken(store, { workspaceId: workspace.workspaceId, userId: workspace.ownerId })).token;
    store.db.close();

    const { child, exited } = spawnCli(['serve', '--port', '0', '--db', db.file, '--json'], { RATE_LIMIT_QUOTA: '100000', AUTH_FAILURE_QUOTA: '100000' });
    try {
      const { url } = await firstJsonLine(child);
      const junit = path.join(path.dirname(db.file), 'contract-test.xml');
      const result = await runCli(['contract-test', '--base-url', String(url), '--key', workspace.key, '--token', token, '--seed', '9', '--junit', junit, '--json', '--operations', OPERATIONS.join(',')]);
      const report = jsonOf(result) as { failures: unknown[]; requests: number; coverage: Array<{ observed: number[] }> };
      expect(report.failures).toEqual([]);
      expect(report.requests).toBeGreaterThan(100);
      expect(existsSync(junit)).toBe(true);
      expect(readFileSync(junit, 'utf8')).toMatch(/<testsuites name="workspace-api contract-test" tests="\d+" failures="0"/);
      expect(result.stderr).toContain(`reading Workspace Read API`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});

/** Runs the command line as a user does, collecting both streams and the child's peak resident size. */
function runWatched(args: readonly string[], onStderr?: (text: string) => void): Promise<{ code: number | null; stdout: string; stderr: string; peakBytes: number }> {
  const { child, exited } = spawnCli(args);
  const watch = watchResidentSize(child.pid!, KILL_ABOVE);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    onStderr?.(stderr);
  });
  return exited.then((code) => {
    watch.stop();
    return { code, stdout, stderr, peakBytes: watch.peakBytes() };
  });
}

/**
 * A POST whose body never ends, written as fast as the receiver takes it (and no faster: a sender
 * that ignored backpressure would grow this process instead); answers the status the receiver
 * gave, or that it closed the connection.
 */
function postEndlessly(url: string): Promise<number | 'connection closed'> {
  return new Promise((resolve) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let open = true;
    const pump = (): void => {
      while (open && request.write(chunk));
      if (open) request.once('drain', pump);
    };
    request.on('response', (response) => {
      open = false;
      response.resume();
      resolve(response.statusCode!);
      request.destroy();
    });
    request.on('error', () => {
      open = false;
      resolve('connection closed');
    });
    request.on('close', () => {
      open = false;
      resolve('connection closed');
    });
    pump();
  });
}

/** Past this the child is killed: an unbounded read grows without end. */
const KILL_ABOVE = 400 * 1024 * 1024;
/** What a run of the checker stays under while it reads a bounded share of an endless body. */
const BOUNDED = 200 * 1024 * 1024;

// A server, or a webhook sender, is a party the QA team does not control: what it chooses reaches
// the team's terminal only escaped and quoted, and what it sends is read only up to a bound.
describe('workspace-api contract-test against a hostile server (spawned)', { timeout: 60_000 }, () => {
  let hostile: HostileServer | undefined;
  afterEach(async () => {
    await hostile?.close();
    hostile = undefined;
  });

  const checkAgainst = (url: string, ...more: string[]) => runWatched(['contract-test', '--base-url', url, '--key', `wsk_live_${'a'.repeat(32)}`, '--seed', '1', '--examples', '1', '--budget', '40', ...more]);

  it('prints no control character the server chose, in the text, --json or the JUnit file, and forges none of its lines', async () => {
    hostile = await startHostileServer({ endless: '/api/v1/workspace' });
    db = tempDatabase();
    const junit = path.join(path.dirname(db.file), 'hostile.xml');
    for (const json of [false, true]) {
      const result = await checkAgainst(hostile.url, '--operations', 'getMe', '--junit', junit, ...(json ? ['--json'] : []));
      const output = result.stdout + result.stderr;
      expect(output).not.toMatch(TERMINAL_CONTROLS);
      expect(forgedCommandLines(output)).toEqual([]);
      expect(result.code).toBe(1);
      expect(readFileSync(junit, 'utf8')).not.toMatch(TERMINAL_CONTROLS);
      if (json) {
        // Escaped for the terminal, the JSON still carries exactly what the server sent.
        expect((JSON.parse(result.stdout) as { served_contract_version: string }).served_contract_version).toBe(`9.9.9${HOSTILE_TEXT}`);
      } else {
        // The property name is shown quoted, every control character in it escaped.
        expect(result.stdout).toContain(`must NOT have additional properties (${JSON.stringify(HOSTILE_TEXT).replace(/[\u007f-\u009f\u2028\u202e]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)})`);
      }
    }
  });

  it('stops reading an endless answer at --max-body-bytes, its memory bounded, and says so', async () => {
    hostile = await startHostileServer({ endless: '/api/v1/workspace' });
    const result = await checkAgainst(hostile.url, '--operations', 'getWorkspace', '--max-body-bytes', '1048576', '--json');
    expect(result.peakBytes).toBeLessThan(BOUNDED);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { failures: Array<{ operation_id: string; problems: string[] }> };
    expect(report.failures.find((f) => f.operation_id === 'getWorkspace')!.problems)
      .toEqual(['the answer\'s body is longer than 1048576 bytes (--max-body-bytes): the read was stopped there']);
  });

  /** `contract-test webhooks` on a free port, as a user starts it; resolves with its URL once it listens. */
  const receiving = (...more: string[]) => {
    let announced: (url: string) => void = () => undefined;
    const listening = new Promise<string>((resolve) => { announced = resolve; });
    const run = runWatched(['contract-test', 'webhooks', '--listen', '127.0.0.1:0', '--secret', 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0', '--count', '1', '--timeout', '30', ...more],
      (stderr) => {
        const url = /receiving webhooks on (http:\/\/\S+\/)/.exec(stderr)?.[1];
        if (url) announced(url);
      });
    return { listening, run };
  };

  it('webhooks: prints no control character a sender chose and forges none of its lines', async () => {
    const { listening, run } = receiving();
    await fetch(await listening, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_\u00ff', 'x-webhook-event': 'content.status_updated' },
      body: JSON.stringify({ event: HOSTILE_TEXT, [HOSTILE_TEXT]: HOSTILE_TEXT }),
    });
    const result = await run;
    const output = result.stdout + result.stderr;
    expect(output).not.toMatch(TERMINAL_CONTROLS);
    expect(forgedCommandLines(output)).toEqual([]);
    expect(result.code).toBe(1);
  });

  it('webhooks: stops reading an endless POST at --max-body-bytes (413), its memory bounded, and says so', async () => {
    const { listening, run } = receiving('--max-body-bytes', '65536');
    const refused = await postEndlessly(await listening);
    const result = await run;
    expect([413, 'connection closed']).toContain(refused);
    expect(result.peakBytes).toBeLessThan(BOUNDED);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('the delivery\'s body is longer than 65536 bytes (--max-body-bytes): the read was stopped there');
  });
});
