import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { jsonOf, runCliInProcess } from '../../cli/run-cli.js';
import { allowUnreached, MEMBER_TOKEN_ONLY, NEVER_SENT, startDemoServer, WRITES, type DemoServer } from './demo-server.js';
import { rowsOf, valueOf, valuesOf } from '../../support/database-rows.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { NO_RATE_LIMIT, startTestServerForThisTest } from '../../support/test-server.js';

interface Report {
  requests: number;
  failures: Array<{ operation_id: string; problems: string[]; curl: string }>;
  coverage: Array<{ operation_id: string; method: string; observed: number[]; not_observed: Array<{ status: string; why: string }> }>;
  not_reached: Array<{ operation_id: string; what: string; reason: string }>;
  unreached_operations: Array<{ operation_id: string; reason: string; allowed: boolean }>;
  budget_spent: boolean;
}

const readOperations = Object.values((loadOpenApiDocument() as { paths: Record<string, Record<string, { operationId?: string }>> }).paths)
  .flatMap((item) => Object.entries(item).filter(([method]) => method === 'get').map(([, op]) => op.operationId!));

let demo: DemoServer | undefined;
let folder: string | undefined;
afterEach(async () => {
  await demo?.server.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
  demo = undefined;
  folder = undefined;
});

function tempFile(name: string): string {
  folder ??= mkdtempSync(path.join(tmpdir(), 'wsapi-contract-test-'));
  return path.join(folder, name);
}

/** The requests a JUnit file lists (each case's `<system-out>`: `title: METHOD target → status`), in order. */
function requestLines(junit: string): string[] {
  return [...junit.matchAll(/<system-out>([^<]*)<\/system-out>/g)].flatMap((m) => m[1]!.split('\n'))
    .map((line) => line.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
}

/** `<testcase … name="…">` in document order. */
function testCaseNames(junit: string): string[] {
  return [...junit.matchAll(/<testcase classname="[^"]*" name="([^"]*)"/g)].map((m) => m[1]!);
}

describe('workspace-api contract-test against our own server', { timeout: 120_000 }, () => {
  // One whole run carries both claims (a whole run is the longest thing in this file): every read
  // is reached, and a workspace without its plan record is a documented state, not a fault. That
  // the plan's 200 matches the contract is the writes run's (its workspace has a plan).
  it('with a key, a member token and a limited key, on a workspace with data and no plan record yet: exits 0, covers every read operation with a 2xx (the plan with its documented 404, a state, not a fault), checks the administration API\'s order, writes JUnit', async () => {
    demo = await startDemoServer({ withoutPlan: true });
    const junit = tempFile('junit.xml');
    const result = await runCliInProcess(['contract-test', ...demo.args, '--token', demo.token, '--limited-key', demo.limitedKey, '--seed', '7', '--junit', junit, '--json', ...allowUnreached(WRITES)]);
    const report = jsonOf(result) as unknown as Report;

    expect(report.failures).toEqual([]);
    expect(result.code).toBe(0);
    // Only the writes are left, each allowed, each with its reason.
    expect(report.unreached_operations.map((u) => u.operation_id).sort()).toEqual([...WRITES].sort());
    expect(report.unreached_operations.filter((u) => !u.allowed)).toEqual([]);
    expect(report.unreached_operations.find((u) => u.operation_id === 'createWebhook')!.reason).toBe('a write: sent only with --allow-writes');
    expect(report.budget_spent).toBe(false);
    const succeeded = report.coverage.filter((c) => c.observed.some((s) => s >= 200 && s < 300)).map((c) => c.operation_id);
    expect(readOperations.filter((op) => !succeeded.includes(op))).toEqual(['getWorkspacePlan']);
    const plan = report.coverage.find((c) => c.operation_id === 'getWorkspacePlan')!;
    expect(plan.observed).toContain(404);
    expect(plan.observed.filter((s) => s < 300)).toEqual([]);
    // Each refusal it can provoke from outside was seen: 401, 403 (the limited key), 404, 405, 422.
    const seen = new Set(report.coverage.flatMap((c) => c.observed));
    expect([401, 403, 404, 405, 422].filter((s) => !seen.has(s))).toEqual([]);
    // What cannot be produced from outside is said, with why.
    const listPrompts = report.coverage.find((c) => c.operation_id === 'listPrompts')!;
    expect(listPrompts.not_observed).toEqual(expect.arrayContaining([
      { status: '402', why: 'needs a workspace without an active subscription, which only the operator sets' },
      { status: '403', why: 'scope refusal not checked: no key of the run lacks visibility:read' },
      { status: '429', why: 'would spend the whole rate limit; seen only when the run is throttled' },
      { status: '500', why: 'needs a fault inside the service; nothing a client sends provokes it' },
      { status: '503', why: 'needs a dependency of the service to be away (the rate limit\'s store, or the database busy with an import)' },
    ]));
    // Without --allow-writes no write is sent, and the report says so.
    expect(report.not_reached).toContainEqual({ operation_id: 'createWebhook', what: 'every call', reason: 'a write: sent only with --allow-writes' });

    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="workspace-api contract-test" tests="\d+" failures="0"/);
    for (const op of readOperations) expect(xml).toContain(`<testsuite name="${op}"`);
    // One case per operation and kind of check, each listing the requests it sent.
    expect(xml).toMatch(/<testcase classname="listContentMapEvents" name="ignored_auth" time="[\d.]+">\n {6}<system-out>no credential → 401 4021: GET \/api\/v1\/content-map\/events → 401\n/);
    expect([...new Set(testCaseNames(xml))]).toEqual(expect.arrayContaining(['positive_data_acceptance', 'negative_data_rejection', 'ignored_auth', 'scope_refusal',
      'unsupported_method', 'conditional_request', 'head_matches_get', 'order_of_checks', 'reached']));
    // A wrong method's answer is checked against every operation of its path: one request, several lines.
    expect(requestLines(xml).filter((l) => !l.startsWith('not run: ')).length).toBeGreaterThanOrEqual(report.requests);
    expect(xml).not.toContain(demo.workspace.key);
    expect(xml).not.toContain(demo.token);
    // The administration API answers a workspace that is not the caller's with 404 before a 422.
    const names = requestLines(xml);
    expect(names).toContainEqual(expect.stringMatching(/^order of checks: 404 \(another workspace\) before 422: GET \/api\/workspace\/[0-9a-f-]{36}\/\S+\?zz_unknown_\w+=1 → 404$/));
    expect(names).toContainEqual(expect.stringMatching(/^order of checks: 422 before 404: GET \/api\/v1\//));
  });

  it('on a fresh workspace whose lists are empty: every read by id is not reached, with the reason, and the run exits 1', async () => {
    const server = await startTestServerForThisTest({ rateLimit: NO_RATE_LIMIT, validateResponses: false });
    const workspace = await createTestWorkspace(server.store, { name: 'Fresh' });
    // A read by id, a HEAD by id and the list they would take their ids from.
    const result = await runCliInProcess(['contract-test', '--base-url', server.url, '--key', workspace.key, '--seed', '4', '--json',
      '--operations', 'getPromptAnalytics,headArticle,listPrompts', ...allowUnreached(MEMBER_TOKEN_ONLY, WRITES)]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.failures).toEqual([]);
    const unreached = report.unreached_operations.filter((u) => !u.allowed);
    expect(unreached).toContainEqual({ operation_id: 'getPromptAnalytics', allowed: false,
      reason: 'no id for {prompt}: no answer listed one, and the contract\'s example names nothing here (404)' });
    expect(unreached.map((u) => u.operation_id)).toContain('headArticle');
    expect(unreached.map((u) => u.operation_id)).not.toContain('listPrompts');
  });

  it('prints a summary of operations × statuses; without a member token the administration API is not reached, which fails the run with the reason', async () => {
    demo = await startDemoServer();
    // Key reads and administration operations (reads and a write); the whole run is the first test's.
    const operations = ['getMe', 'getPromptAnalytics', 'listArticles', 'createApiKey', 'listApiKeys', 'listWebhooks'];
    const result = await runCliInProcess(['contract-test', ...demo.args, '--seed', '3', '--operations', operations.join(',')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Contract test of http:\/\/127\.0\.0\.1:\d+ against Workspace Read API \S+ \(the server publishes the same version\), seed 3\n/);
    expect(result.stdout).toMatch(/\n {2}getPromptAnalytics +GET +\/api\/v1\/visibility\/prompts\/\{prompt\} +200✓ 304[✓·] 401[✓·] 402· 403· 404[✓·] 405[✓·] 422[✓·] 429· 500· 503·\n/);
    expect(result.stdout).toContain('\nOperations not reached (no 2xx, nor a documented absent state)\n');
    expect(result.stdout).toContain('\n  createApiKey: takes a member token: give --token\n');
    expect(result.stdout).not.toContain('\nFailures');
    const unreached = operations.filter((op) => MEMBER_TOKEN_ONLY.includes(op) || WRITES.includes(op)).length;
    expect(unreached).toBe(3);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(`FAILED: ${unreached} operations were not reached (name them in --allow-unreached to accept it).`);
    expect(result.stdout + result.stderr).not.toContain(demo.workspace.key);
  });

  it('with --allow-writes, creates and removes its own webhook and key, leaving nothing behind', async () => {
    demo = await startDemoServer();
    const { store } = demo.server;
    const keysBefore = await valuesOf(store, 'SELECT id FROM api_keys WHERE revoked_at IS NULL ORDER BY id');
    const webhooksBefore = await rowsOf(store, 'SELECT id, updated_at FROM webhooks ORDER BY id');
    const junit = tempFile('junit-writes.xml');
    const result = await runCliInProcess(['contract-test', ...demo.args, '--token', demo.token, '--allow-writes',
      '--webhook-url', 'http://127.0.0.1:9/contract-test', '--seed', '11', '--junit', junit, '--json', ...allowUnreached(NEVER_SENT)]);
    const report = jsonOf(result) as unknown as Report;

    expect(report.failures).toEqual([]);
    // The write sequence follows the contract's links, down to the read after the deletion.
    const sent = readFileSync(junit, 'utf8');
    for (const step of ['read the created webhook (link from createWebhook)', 'rename the created webhook (link from getWebhook)',
      'delete the created webhook (link from updateWebhook)', 'use_after_free: the deleted webhook read again (link from deleteWebhook) → 404',
      'revoke the created key (link from createApiKey)']) expect(sent).toContain(step);
    // Property-based bodies: the edges reach every value of an enumeration and both bounds (each
    // accepted), and an invalid body of each write with one is refused with a 422 naming its field.
    const lines = requestLines(sent);
    for (const event of (loadOpenApiDocument() as { components: { schemas: { EventType: { enum: string[] } } } }).components.schemas.EventType.enum) {
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^a valid body accepted: body \\{"event":"${event.replace('.', '\\.')}"\\}: POST \\S+/test → 200$`)));
    }
    for (const bound of [0, 604800]) expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^a valid body accepted: body \\{"grace_period_seconds":${bound}\\}: POST \\S+/rotate-secret → 200$`)));
    for (const path of ['/webhooks', '/api-keys', '/rotate-secret', '/test', '/deliveries/recover', '/members/[0-9a-f-]{36}']) {
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^an invalid body refused with 422 naming its field \\([^)]+\\): body .*: (POST|PATCH) /api/workspace/[0-9a-f-]{36}\\S*${path} → 422$`)));
    }
    // Every read answered a 2xx here too, the plan's 200 among them (the run above has no plan record).
    const succeeded = report.coverage.filter((c) => c.observed.some((s) => s >= 200 && s < 300)).map((c) => c.operation_id);
    expect(readOperations.filter((op) => !succeeded.includes(op))).toEqual([]);
    const covered = (id: string) => report.coverage.find((c) => c.operation_id === id)!.observed;
    expect(covered('createWebhook')).toContain(201);
    expect(covered('deleteWebhook')).toContain(200);
    expect(covered('createApiKey')).toContain(201);
    expect(covered('revokeApiKey')).toContain(200);
    // Never removes a member: only refusals that change nothing reach that operation.
    expect(covered('removeMember').filter((s) => s < 300)).toEqual([]);
    expect(await rowsOf(store, 'SELECT id, updated_at FROM webhooks ORDER BY id')).toEqual(webhooksBefore);
    expect(await valuesOf(store, 'SELECT id FROM api_keys WHERE revoked_at IS NULL ORDER BY id')).toEqual(keysBefore);
    expect(await valueOf(store, 'SELECT count(*) FROM memberships WHERE workspace_id = ?', [demo.workspace.workspaceId])).toBe(1);
  });

  it('with the same --seed, sends the same requests; with another, other generated values', async () => {
    demo = await startDemoServer();
    // Operations whose queries are generated (enumerations, bounds, dates, filters): what the seed
    // decides. One draw per property is enough for the seed to show.
    const generated = ['--operations', 'listAnswers,exportAnswers', '--examples', '1'];
    const names = async (seed: string) => {
      const junit = tempFile(`junit-${seed}-${Math.random()}.xml`);
      const result = await runCliInProcess(['contract-test', ...demo!.args, '--seed', seed, '--junit', junit, '--json', ...generated]);
      expect(result.code).toBe(0);
      return requestLines(readFileSync(junit, 'utf8'));
    };
    const first = await names('5');
    // Narrowed, the run reads only what its operations need: nothing of the content or IQ areas.
    expect(first.filter((line) => /: (GET|HEAD) \/api\/v1\/(content|iq)\//.test(line))).toEqual([]);
    expect(first).toContainEqual(expect.stringMatching(/: GET \/api\/v1\/visibility\/prompts\?limit=2 → 200$/));
    expect(await names('5')).toEqual(first);
    expect(await names('6')).not.toEqual(first);
  });
});
