import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemberToken } from '../../../src/keys/member-tokens.js';
import { simulate } from '../../../src/simulator/simulate.js';
import { deliveryHeaders } from '../../../src/webhooks/signing.js';
import { runCliInProcess, startCliInProcess } from '../../cli/run-cli.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { startTestServerForThisTest } from '../../support/test-server.js';
import { ALL_EVENT_TYPES, newWebhookSecret, startDispatcherForThisTest } from '../../support/webhooks.js';
import { freePort } from '../../support/free-port.js';

interface Report {
  deliveries: number;
  valid: number;
  refused: number;
  by_event: Record<string, number>;
  redelivery: { delivery_id: string; arrivals: number; stable: boolean } | null;
  failures: Array<{ what: string; problems: string[] }>;
  not_checked: string[];
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The real app and its dispatcher (no retries, so each delivery is one request), a workspace and an owner's token. */
async function startWorld() {
  const server = await startTestServerForThisTest({ allowPrivateWebhookTargets: true, validateResponses: false });
  const workspace = await createTestWorkspace(server.store);
  const token = (await createMemberToken(server.store, { workspaceId: workspace.workspaceId, userId: workspace.ownerId })).token;
  startDispatcherForThisTest(server.store, { retryScheduleMs: [] });
  /** A webhook made through the administration API, as an owner makes one; answers its id and secret. */
  const createWebhook = async (url: string): Promise<{ id: string; secret: string }> => {
    const res = await send(server.url, {
      method: 'POST', path: `/api/workspace/${workspace.workspaceId}/webhooks`, key: token,
      body: { url, name: 'QA receiver', events: ALL_EVENT_TYPES },
    });
    expect(res.status).toBe(201);
    const data = (res.body as { data: { webhook: { id: string }; secret: string } }).data;
    return { id: data.webhook.id, secret: data.secret };
  };
  /** `count` steps of the simulator through the import: status changes, and the first states of new records. */
  const changeStatuses = (count: number) => simulate(server.store, { workspaceId: workspace.workspaceId, intervalMs: 1, count, random: () => 0.5 });
  return { server, workspace, token, createWebhook, changeStatuses };
}

function receiver(port: number, secret: string, ...more: string[]) {
  return startCliInProcess(['contract-test', 'webhooks', '--listen', String(port), '--secret', secret, '--timeout', '20', ...more, '--json']);
}

describe('workspace-api contract-test webhooks', { timeout: 60_000 }, () => {
  it('validates real deliveries from our dispatcher, then with --trigger a test event per type and a redelivery with a stable webhook-id', async () => {
    const world = await startWorld();
    const port = await freePort();
    const webhook = await world.createWebhook(`http://127.0.0.1:${port}/hooks`);

    const first = receiver(port, webhook.secret, '--count', '14');
    await first.waitForStderr(/receiving webhooks on http:\/\/127\.0\.0\.1:\d+\//);
    // The first step's new topic, persona, task and article announce themselves; the batch's start does not.
    expect(await world.changeStatuses(11)).toEqual({ changes: 11, events: 14 });
    const received = await first.exited;
    expect(received.code).toBe(0);
    const report = JSON.parse(received.stdout) as Report;
    expect([report.deliveries, report.valid, report.refused, report.failures]).toEqual([14, 14, 0, []]);
    expect(Object.keys(report.by_event).sort()).toEqual([...ALL_EVENT_TYPES].sort());

    const folder = mkdtempSync(path.join(tmpdir(), 'wsapi-webhooks-'));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const junit = path.join(folder, 'webhooks.xml');
    const triggered = await runCliInProcess(['contract-test', 'webhooks', '--listen', String(port), '--secret', webhook.secret, '--trigger',
      '--base-url', world.server.url, '--token', world.token, '--workspace', world.workspace.workspaceId, '--webhook', webhook.id,
      '--timeout', '10', '--junit', junit, '--json']);
    expect(triggered.code).toBe(0);
    const trigger = JSON.parse(triggered.stdout) as Report;
    // One test event per subscribed type, then one delivery redelivered twice.
    expect([trigger.deliveries, trigger.valid, trigger.failures, trigger.not_checked]).toEqual([8, 8, [], []]);
    expect(trigger.redelivery).toEqual({ delivery_id: expect.stringMatching(/^[0-9a-f-]{36}$/), arrivals: 2, stable: true });
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="workspace-api contract-test webhooks" tests="\d+" failures="0"/);
    for (const event of ALL_EVENT_TYPES) expect(xml).toContain(`<testsuite name="${event}"`);
    expect(xml).toContain('<testsuite name="redeliverWebhookDelivery"');
    expect(xml).not.toContain(world.token);
  });

  it('refuses deliveries signed with another secret than its own', async () => {
    const world = await startWorld();
    const port = await freePort();
    await world.createWebhook(`http://127.0.0.1:${port}/hooks`);
    const wrong = receiver(port, newWebhookSecret(), '--count', '2');
    await wrong.waitForStderr(/receiving webhooks on/);
    await world.changeStatuses(2);
    const result = await wrong.exited;
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect([report.deliveries, report.valid, report.refused]).toEqual([2, 0, 2]);
    for (const failure of report.failures) {
      expect(failure.problems).toEqual([
        'X-Webhook-Signature does not match the body and the secret',
        'webhook-signature (Standard Webhooks): No matching signature found',
      ]);
    }
    expect(result.stderr).toMatch(/REFUSED #1 "\S+" webhook-id "[0-9a-f-]{36}": X-Webhook-Signature does not match/);
  });

  it('refuses a body changed on the way, and a payload missing a field even when signed correctly', async () => {
    const world = await startWorld();
    const [relayPort, port] = [await freePort(), await freePort()];
    const webhook = await world.createWebhook(`http://127.0.0.1:${relayPort}/hooks`);
    // Between the service and the receiver: the first delivery is altered after signing; the
    // second loses `timestamp` and is signed again with the webhook's own secret.
    let seen = 0;
    const relay = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'content-length' && name !== 'host')) as Record<string, string>;
        let forwarded: string;
        if (seen++ === 0) {
          forwarded = JSON.stringify({ ...body, data: { ...(body.data as object), id: '00000000-0000-4000-8000-000000000000' } });
        } else {
          delete body.timestamp;
          forwarded = JSON.stringify(body);
          Object.assign(headers, deliveryHeaders({ deliveryId: headers['webhook-id']!, eventType: String(body.event), body: forwarded, secrets: [webhook.secret], sentAt: new Date() }));
        }
        // Later deliveries find the receiver gone once it has its count: the relay answers 502 then.
        void fetch(`http://127.0.0.1:${port}/hooks`, { method: 'POST', headers, body: forwarded })
          .then((answer) => res.writeHead(answer.status).end(), () => res.writeHead(502).end());
      });
    });
    await new Promise<void>((resolve) => relay.listen(relayPort, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => relay.close(() => resolve())));

    const checking = receiver(port, webhook.secret, '--count', '2');
    await checking.waitForStderr(/receiving webhooks on/);
    await world.changeStatuses(2);
    const result = await checking.exited;
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect([report.deliveries, report.refused]).toEqual([2, 2]);
    expect(report.failures.map((f) => f.problems).sort()).toEqual([
      ['X-Webhook-Signature does not match the body and the secret', 'webhook-signature (Standard Webhooks): No matching signature found'],
      ['body/ must have required property \'timestamp\''],
    ].sort());
  });
});
