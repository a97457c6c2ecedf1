import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../src/keys/scopes.js';
import type { Store } from '../../src/store/index.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { postgresAvailable } from '../support/postgres.js';
import { competitorLine, promptLine, snapshotLine } from '../support/import-records.js';
// Commands run in this process (the same entry the bin uses, with their own streams); only `serve`
// is a real process, and test/cli/bin-smoke.test.ts runs the compiled bin.
import { cliDatabase, firstJsonLine, jsonOf, runCliInProcess as runCli, spawnCli, type StoreKind } from './run-cli.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let db: Awaited<ReturnType<typeof cliDatabase>> | undefined;
afterEach(async () => {
  await db?.cleanup();
  db = undefined;
});

// The commands run in this process, one after another as an operator types them: two at once
// would hold two SQLite connections on one thread, and the one waiting for the write lock would
// block the thread the holder needs to commit (separate processes, as users run them, do not).
let previous: Promise<unknown> = Promise.resolve();
async function cliJson(args: string[]): Promise<Record<string, unknown>> {
  const run = previous.then(() => runCli([...args, '--db', db!.address, '--json']));
  previous = run.catch(() => undefined);
  return jsonOf(await run);
}

/** Whether a secret appears anywhere in the database: in the SQLite file's bytes, or in any row of any PostgreSQL table. */
async function databaseHolds(store: Store, secret: string): Promise<boolean> {
  if (db!.kind === 'sqlite') {
    (store as SqliteStore).db.pragma('wal_checkpoint(TRUNCATE)');
    return readFileSync(db!.address).includes(secret);
  }
  const client = new pg.Client({ connectionString: db!.address });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>("SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables.rows.length).toBeGreaterThan(10);
    for (const { name } of tables.rows) {
      const found = await client.query(`SELECT 1 FROM ${name} t WHERE strpos(t::text, $1) > 0 LIMIT 1`, [secret]);
      if (found.rows.length > 0) return true;
    }
    return false;
  } finally {
    await client.end();
  }
}

/** A workspace with an owner, a plain member and an outsider, made through the command line. */
async function account() {
  const [workspace, owner, member, outsider] = await Promise.all([
    cliJson(['workspace', 'create', '--name', 'Acme Analytics']),
    cliJson(['user', 'create', '--email', 'ada@acme.example', '--name', 'Ada Owner']),
    cliJson(['user', 'create', '--email', 'max@acme.example', '--name', 'Max Member']),
    cliJson(['user', 'create', '--email', 'out@elsewhere.example', '--name', 'Olga Outsider']),
  ]);
  const ids = { workspace: String(workspace.id), owner: String(owner.id), member: String(member.id), outsider: String(outsider.id) };
  await Promise.all([
    cliJson(['member', 'add', '--workspace', ids.workspace, '--user', ids.owner, '--role', 'owner']),
    cliJson(['member', 'add', '--workspace', ids.workspace, '--user', ids.member, '--role', 'member']),
  ]);
  return ids;
}

// On both stores: `--db` takes a SQLite file or a PostgreSQL URL.
const STORES: StoreKind[] = postgresAvailable() ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(STORES)('workspace-api (command line) on %s', { timeout: 120_000 }, (kind) => {
  it('runs every account and key command, each --json printing exactly one JSON object', async () => {
    db = await cliDatabase(kind);
    const ids = await account();
    expect(Object.values(ids).every((id) => UUID.test(id))).toBe(true);

    const [pastDue, keyDefault, keyNarrow] = await Promise.all([
      cliJson(['workspace', 'create', '--name', 'Late Payer', '--subscription', 'past_due']),
      cliJson(['key', 'create', '--workspace', ids.workspace, '--user', ids.owner, '--name', 'Dashboard']),
      cliJson(['key', 'create', '--workspace', ids.workspace, '--user', ids.owner, '--name', 'Narrow',
        '--scopes', 'iq:read,visibility:read', '--expires-at', '2031-06-30T12:00:00+02:00']),
    ]);
    const key = String(keyDefault.key);
    expect(keyDefault).toEqual({ id: expect.stringMatching(UUID), key: expect.stringMatching(/^wsk_live_[0-9A-Za-z]{38}$/), prefix: key.slice(0, 13), scopes: [...ALL_SCOPES], expires_at: expect.stringMatching(ISO) });
    const year = Date.parse(String(keyDefault.expires_at)) - Date.now();
    expect(Math.abs(year - 365 * 86_400_000)).toBeLessThan(120_000);
    expect(keyNarrow).toMatchObject({ scopes: ['visibility:read', 'iq:read'], expires_at: '2031-06-30T10:00:00.000Z' });

    const [subscription, listed] = await Promise.all([
      cliJson(['workspace', 'set-subscription', '--workspace', ids.workspace, '--status', 'canceled']),
      runCli(['key', 'list', '--workspace', ids.workspace, '--db', db.address, '--json']),
    ]);
    expect(subscription).toEqual({ id: ids.workspace, subscription_status: 'canceled' });
    const keys = (jsonOf(listed).keys as Array<Record<string, unknown>>);
    expect(keys.map((k) => [k.id, k.name, k.prefix, k.revoked_at]).sort()).toEqual([
      [keyDefault.id, 'Dashboard', keyDefault.prefix, null],
      [keyNarrow.id, 'Narrow', keyNarrow.prefix, null],
    ].sort());
    // Prefixes only: no listed field carries a secret.
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toContain(String(keyNarrow.key));

    const revoked = await cliJson(['key', 'revoke', '--key', String(keyNarrow.id)]);
    expect(revoked).toEqual({ id: keyNarrow.id, revoked_at: expect.stringMatching(ISO) });
    const removed = await cliJson(['member', 'remove', '--workspace', ids.workspace, '--user', ids.member]);
    expect(removed).toEqual({ workspace_id: ids.workspace, user_id: ids.member, removed: true });

    const store = await db.open();
    expect(await store.accounts.getWorkspace(ids.workspace)).toMatchObject({ name: 'Acme Analytics', subscription_status: 'canceled' });
    expect(await store.accounts.getWorkspace(String(pastDue.id))).toMatchObject({ subscription_status: 'past_due' });
    expect((await store.accounts.listMemberships(ids.workspace)).map((m) => [m.user_id, m.role])).toEqual([[ids.owner, 'owner']]);
    expect((await store.apiKeys.get(String(keyNarrow.id)))!.revoked_at).toBe(revoked.revoked_at);
    // Only the SHA-256 of a key is stored; the key itself appears nowhere in the database.
    const hash = createHash('sha256').update(key).digest('hex');
    expect((await store.apiKeys.get(String(keyDefault.id)))!.key_hash).toBe(hash);
    expect(await databaseHolds(store, hash)).toBe(true);
    expect(await databaseHolds(store, key.slice(9))).toBe(false);
  });

  it('prints one readable line (or the key and a warning) without --json', async () => {
    db = await cliDatabase(kind);
    const ids = await account();
    const [workspace, key] = await Promise.all([
      runCli(['workspace', 'create', '--name', 'Plain', '--db', db.address]),
      runCli(['key', 'create', '--workspace', ids.workspace, '--user', ids.owner, '--name', 'Plain', '--db', db.address]),
    ]);
    expect(workspace).toEqual({ code: 0, stdout: expect.stringMatching(/^created workspace [0-9a-f-]{36}\n$/), stderr: '' });
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(/^created key [0-9a-f-]{36} \(expires [^)]+\)\nwsk_live_[0-9A-Za-z]{38}\nStore it now: it is shown only once\.\n$/);
  });

  it('refuses bad input with exit code 1 and one line on stderr, and writes nothing', async () => {
    db = await cliDatabase(kind);
    const ids = await account();
    const kept = await cliJson(['key', 'create', '--workspace', ids.workspace, '--user', ids.owner, '--name', 'Kept']);
    const gone = await cliJson(['key', 'create', '--workspace', ids.workspace, '--user', ids.owner, '--name', 'Gone']);
    await cliJson(['key', 'revoke', '--key', String(gone.id)]);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const keyCreate = (...extra: string[]) => ['key', 'create', '--workspace', ids.workspace, '--user', ids.owner, '--name', 'New', ...extra];

    const cases: Array<[args: string[], stderr: RegExp]> = [
      [['key', 'create', '--workspace', ids.workspace, '--user', ids.member, '--name', 'New'], /only an owner of the workspace can create keys/],
      [['key', 'create', '--workspace', ids.workspace, '--user', ids.outsider, '--name', 'New'], /only an owner of the workspace can create keys/],
      [['key', 'create', '--workspace', unknown, '--user', ids.owner, '--name', 'New'], new RegExp(`workspace ${unknown} does not exist`)],
      [['key', 'create', '--workspace', ids.workspace, '--user', unknown, '--name', 'New'], new RegExp(`user ${unknown} does not exist`)],
      [keyCreate('--scopes', 'visibility:read,admin:write'), /--scopes: unknown scope "admin:write"/],
      [keyCreate('--expires-at', 'next tuesday'), /--expires-at "next tuesday" is not an RFC 3339 time/],
      [keyCreate('--expires-at', '2031-02-30T00:00:00Z'), /is not an RFC 3339 time/],
      [keyCreate('--expires-at', '2020-01-01T00:00:00Z'), /expires-at must be in the future/],
      [['key', 'create', '--workspace', ids.workspace, '--user', ids.owner, '--name', ' '], /the key needs a name/],
      [['key', 'create', '--workspace', ids.workspace, '--user', ids.owner], /--name is required/],
      [keyCreate('--scope', 'iq:read'), /unknown option --scope/],
      [['key', 'revoke', '--key', unknown], new RegExp(`key ${unknown} does not exist`)],
      [['key', 'revoke', '--key', String(gone.id)], /is already revoked/],
      [['key', 'list', '--workspace', unknown], /does not exist/],
      [['member', 'add', '--workspace', ids.workspace, '--user', ids.outsider, '--role', 'admin'], /--role must be one of owner, member/],
      [['member', 'add', '--workspace', ids.workspace, '--user', unknown, '--role', 'member'], /does not exist/],
      [['member', 'remove', '--workspace', ids.workspace, '--user', ids.outsider], /is not a member of workspace/],
      [['workspace', 'create', '--name', 'Gold', '--subscription', 'gold'], /--subscription must be one of active, past_due, canceled, none/],
      [['workspace', 'create', '--name', '  '], /--name must not be empty/],
      [['workspace', 'create', '--name', 'Typo', '--subscriptoin', 'none'], /unknown option --subscriptoin/],
      [['workspace', 'set-subscription', '--workspace', unknown, '--status', 'active'], /does not exist/],
      [['user', 'create', '--email', 'not-an-email', '--name', 'X'], /--email "not-an-email" is not an email address/],
      [['user', 'create', '--email', 'ada@acme.example', '--name', 'Ada Again'], /a user with email ada@acme.example already exists/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [['serve', '--port', '99999'], /--port "99999" is not a port number/],
    ];
    // One after another, in this process (see cliJson).
    const results = [];
    for (const [args] of cases) results.push(await runCli([...args, '--db', db.address, '--json']));
    results.forEach((result, i) => {
      const [args, stderr] = cases[i]!;
      expect(result, args.join(' ')).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^error: [^\n]+\n$/) });
      expect(result.stderr, args.join(' ')).toMatch(stderr);
    });

    const store = await db.open();
    expect(await store.accounts.countWorkspaces()).toBe(1);
    expect(await store.accounts.getUserByEmail('not-an-email')).toBeUndefined();
    expect((await store.accounts.listMemberships(ids.workspace)).map((m) => [m.user_id, m.role]).sort())
      .toEqual([[ids.owner, 'owner'], [ids.member, 'member']].sort());
    expect((await store.accounts.getWorkspace(ids.workspace))!.subscription_status).toBe('active');
    expect((await store.apiKeys.listByWorkspace(ids.workspace)).map((k) => [k.name, k.revoked_at === null])).toEqual([['Kept', true], ['Gone', false]]);
    expect(kept.id).toEqual(expect.stringMatching(UUID));
  });

  it('serve listens on a free port, answers /api/v1/me with a key the CLI made, and stops cleanly on SIGTERM', async () => {
    db = await cliDatabase(kind);
    const ids = await account();
    const { key } = await cliJson(['key', 'create', '--workspace', ids.workspace, '--user', ids.owner, '--name', 'Serve']);
    const { child, exited } = spawnCli(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db.address, '--json']);
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    const started = await firstJsonLine(child);
    try {
      expect(started).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), demo: null });
      const res = await fetch(`${String(started.url)}/api/v1/me`, { headers: { authorization: `Bearer ${String(key)}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { workspace: { id: string } } }).data.workspace.id).toBe(ids.workspace);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout.split('\n').filter((l) => l !== '')).toHaveLength(1);
  });

  it('import reads a file into the workspace all or nothing, and again changes nothing', async () => {
    db = await cliDatabase(kind);
    const workspace = String((await cliJson(['workspace', 'create', '--name', 'Importer'])).id);
    const folder = mkdtempSync(path.join(tmpdir(), 'wsapi-cli-import-'));
    try {
      const ndjson = (name: string, lines: string[]): string => {
        const file = path.join(folder, name);
        writeFileSync(file, `${lines.join('\n')}\n`);
        return file;
      };
      const prompt = promptLine();
      const first = ndjson('first.ndjson', [competitorLine({ name: 'Chartwise' }).line, prompt.line, snapshotLine({ prompt_id: prompt.id, competitors: ['chartwise'] }).line]);
      expect(await cliJson(['import', '--workspace', workspace, first])).toEqual({ records: 3, inserted: 3, updated: 0, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 });
      expect(await cliJson(['import', '--workspace', workspace, first])).toEqual({ records: 3, inserted: 0, updated: 0, unchanged: 3, deleted: 0, events: 0, events_suppressed: 0 });

      const more = [snapshotLine({ prompt_id: prompt.id, platform: 'claude' }).line, snapshotLine({ prompt_id: prompt.id, platform: 'grok' }).line];
      const broken = await runCli(['import', '--workspace', workspace, ndjson('broken.ndjson', [...more, 'not json']), '--db', db.address]);
      expect(broken).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^error: .*line 3/) });
      // Nothing of the refused file was written: the same records without the bad line are all new.
      expect(await cliJson(['import', '--workspace', workspace, ndjson('fixed.ndjson', more)])).toMatchObject({ records: 2, inserted: 2, unchanged: 0 });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('takes ids in any letter case (RFC 9562) and answers them in lower case', async () => {
    db = await cliDatabase(kind);
    const [workspace, user] = await Promise.all([
      cliJson(['workspace', 'create', '--name', 'Acme']),
      cliJson(['user', 'create', '--email', 'ada@acme.example', '--name', 'Ada']),
    ]);
    const [ws, owner] = [String(workspace.id), String(user.id)];
    expect(await cliJson(['member', 'add', '--workspace', ws.toUpperCase(), '--user', owner.toUpperCase(), '--role', 'owner']))
      .toEqual({ workspace_id: ws, user_id: owner, role: 'owner' });
    const [key, token] = await Promise.all([
      cliJson(['key', 'create', '--workspace', ws.toUpperCase(), '--user', owner.toUpperCase(), '--name', 'Key']),
      cliJson(['token', 'create', '--workspace', ws.toUpperCase(), '--user', owner.toUpperCase()]),
    ]);
    const [revokedKey, revokedToken] = await Promise.all([
      cliJson(['key', 'revoke', '--key', String(key.id).toUpperCase()]),
      cliJson(['token', 'revoke', '--token', String(token.id).toUpperCase()]),
    ]);
    expect([revokedKey.id, revokedToken.id]).toEqual([key.id, token.id]);
    const listed = await cliJson(['key', 'list', '--workspace', ws.toUpperCase()]);
    expect(listed).toMatchObject({ keys: [{ id: key.id, revoked_at: revokedKey.revoked_at }] });
  });
});
