// `workspace-api audit list` and `audit prune` as an operator runs them, on both stores; the
// command line's own writes are in the log as `cli`.
import { afterEach, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/audit/record-audit.js';
import { postgresAvailable } from '../support/postgres.js';
import { cliDatabase, jsonOf, runCliInProcess as runCli, type StoreKind } from './run-cli.js';

let db: Awaited<ReturnType<typeof cliDatabase>> | undefined;
afterEach(async () => {
  await db?.cleanup();
  db = undefined;
});

async function cliJson(args: string[]): Promise<Record<string, unknown>> {
  return jsonOf(await runCli([...args, '--db', db!.address, '--json']));
}

interface Listed {
  entries: Array<{ actor: { type: string; user_id: string | null }; action: string; object: { type: string; id: string | null } | null; address: string | null; outcome: string }>;
}

const STORES: StoreKind[] = postgresAvailable() ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(STORES)('workspace-api audit (command line) on %s', { timeout: 120_000 }, (kind) => {
  it('lists what the command line changed, as cli, newest first, filtered, and as lines for people', async () => {
    db = await cliDatabase(kind);
    const workspace = String((await cliJson(['workspace', 'create', '--name', 'Acme'])).id);
    const owner = String((await cliJson(['user', 'create', '--email', 'ada@acme.example', '--name', 'Ada'])).id);
    const other = String((await cliJson(['user', 'create', '--email', 'max@acme.example', '--name', 'Max'])).id);
    await cliJson(['member', 'add', '--workspace', workspace, '--user', owner, '--role', 'owner']);
    await cliJson(['member', 'add', '--workspace', workspace, '--user', other, '--role', 'owner']);
    const key = String((await cliJson(['key', 'create', '--workspace', workspace, '--user', other, '--name', 'Dashboard'])).id);
    const token = String((await cliJson(['token', 'create', '--workspace', workspace, '--user', other])).id);
    await cliJson(['key', 'update', '--key', key, '--name', 'Renamed']);
    await cliJson(['member', 'remove', '--workspace', workspace, '--user', other]);

    const listed = await cliJson(['audit', 'list', '--workspace', workspace]) as unknown as Listed;
    expect(listed.entries.map((e) => [e.action, e.object?.id])).toEqual([
      ['member_token.revoked', token],
      ['api_key.revoked', key],
      ['member.removed', other],
      ['api_key.updated', key],
      ['member_token.created', token],
      ['api_key.created', key],
      ['member.added', other],
      ['member.added', owner],
    ]);
    for (const entry of listed.entries) expect(entry).toMatchObject({ actor: { type: 'cli', user_id: null }, address: null, outcome: 'succeeded' });

    const revoked = await cliJson(['audit', 'list', '--workspace', workspace, '--action', 'api_key.revoked', '--actor', 'cli']) as unknown as Listed;
    expect(revoked.entries.map((e) => e.object?.id)).toEqual([key]);
    expect((await cliJson(['audit', 'list', '--workspace', workspace, '--limit', '2']) as unknown as Listed).entries).toHaveLength(2);
    expect((await cliJson(['audit', 'list', '--workspace', workspace, '--actor', owner]) as unknown as Listed).entries).toEqual([]);
    expect((await cliJson(['audit', 'list', '--workspace', workspace, '--until', '2020-01-01T00:00:00Z']) as unknown as Listed).entries).toEqual([]);

    const text = await runCli(['audit', 'list', '--workspace', workspace, '--object-id', token, '--db', db.address]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  cli  member_token\\.revoked  member_token:${token}  succeeded  -  -$`));

    const refused = await runCli(['audit', 'list', '--workspace', workspace, '--since', 'yesterday', '--db', db.address]);
    expect([refused.code, refused.stderr]).toEqual([1, 'error: --since must be an RFC 3339 date-time with a time zone, e.g. 2026-11-01T00:00:00Z.\n']);
  });

  it('prunes the entries past the retention (AUDIT_LOG_RETENTION_DAYS, or --retention-days) and keeps the rest', async () => {
    db = await cliDatabase(kind);
    const workspace = String((await cliJson(['workspace', 'create', '--name', 'Acme'])).id);
    const store = await db.open();
    const old = new Date(Date.now() - 30 * 86_400_000);
    await recordAudit(store, { workspaceId: workspace, actor: 'cli', action: 'member.added', object: { type: 'member', id: workspace } }, old);
    await recordAudit(store, { workspaceId: workspace, actor: 'cli', action: 'member.removed', object: { type: 'member', id: workspace } });
    expect(await cliJson(['audit', 'prune'])).toEqual({ removed: 0, retention_days: 400 });
    expect(await cliJson(['audit', 'prune', '--retention-days', '29'])).toEqual({ removed: 1, retention_days: 29 });
    const listed = await cliJson(['audit', 'list', '--workspace', workspace]) as unknown as Listed;
    expect(listed.entries.map((e) => e.action)).toEqual(['member.removed']);
    const refused = await runCli(['audit', 'prune', '--retention-days', '0', '--db', db.address]);
    expect([refused.code, refused.stderr]).toEqual([1, 'error: --retention-days "0" must be a whole number from 1 to 100000\n']);
  });

  it('records the one-time console link the command line prints as one `console_link.created`, never the link', async () => {
    db = await cliDatabase(kind);
    const workspace = String((await cliJson(['workspace', 'create', '--name', 'Acme'])).id);
    const owner = String((await cliJson(['user', 'create', '--email', 'ada@acme.example', '--name', 'Ada'])).id);
    await cliJson(['member', 'add', '--workspace', workspace, '--user', owner, '--role', 'owner']);
    const before = process.env.PUBLIC_BASE_URL;
    process.env.PUBLIC_BASE_URL = 'https://console.example.test';
    let url: string;
    try {
      url = String((await cliJson(['console', 'link', '--workspace', workspace, '--user', owner])).url);
    } finally {
      if (before === undefined) delete process.env.PUBLIC_BASE_URL;
      else process.env.PUBLIC_BASE_URL = before;
    }
    const listed = await cliJson(['audit', 'list', '--workspace', workspace]) as unknown as Listed;
    const links = listed.entries.filter((e) => e.action === 'console_link.created');
    expect(links).toEqual([expect.objectContaining({ actor: { type: 'cli', user_id: null }, object: { type: 'console_link', id: expect.any(String) } })]);
    const token = url.slice(url.lastIndexOf('/') + 1);
    expect(token.length).toBeGreaterThan(20);
    expect(JSON.stringify(listed)).not.toContain(token);
  });
});
