import { SAMPLE_EVENT_DATA } from '../../src/webhooks/delivery/index.js';
import { existsSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bootstrapDemo } from '../../src/demo/bootstrap.js';
import { DEFAULT_DEMO_OPTIONS, generateDemoData } from '../../src/demo/generate-demo-data.js';
import { importLines } from '../../src/import/import-ndjson.js';
import { createApiKey } from '../../src/keys/api-keys.js';
import { createMemberToken } from '../../src/keys/member-tokens.js';
import { hashToken } from '../../src/keys/secret-token.js';
import { copySqliteToPostgres, StoreCopyError } from '../../src/store/postgres/copy-from-sqlite.js';
import { applyPostgresMigrations } from '../../src/store/postgres/migrate.js';
import { createPostgresPool, type PostgresPool } from '../../src/store/postgres/pool.js';
import { rows, value } from '../../src/store/postgres/query.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { jsonOf, runCliInProcess } from '../cli/run-cli.js';
import { copyIntoNewPostgres } from '../support/copy-to-postgres.js';
import { createPostgresDatabase, postgresAvailable } from '../support/postgres.js';
import { sqliteTestStoreForThisTest } from '../support/test-server.js';
import { createTestWebhook, newWebhookSecret } from '../support/webhooks.js';

/** Text that COPY's text format must escape (backslash, tab, LF, CR), its NULL marker spelled out, and non-ASCII. */
const AWKWARD_TEXT = 'tab\there, line\nbreak, crlf\r\nend, back\\slash, \\N, \\., quote \' " é 漢字 😀';

/** The demo workspace, smaller than `npm start`'s so the test stays quick: every area still has records. */
const SMALL_DEMO = { ...DEFAULT_DEMO_OPTIONS, prompts: 6, days: 8, answersPerDay: 1 };

interface Source {
  store: SqliteStore;
  file: string;
  workspaceId: string;
  /** Plain secrets as their holders keep them; only their hashes are in the file. */
  keys: string[];
  tokens: string[];
}

/**
 * A SQLite file with the demo workspace, two more API keys (one revoked), a member with two tokens
 * (one revoked), two webhooks (one mid-rotation, one with awkward text) and deliveries of three
 * events to both, each with attempts (failed, then delivered or failed for good).
 */
async function sourceWithEverything(): Promise<Source> {
  const { store, file } = sqliteTestStoreForThisTest();
  const demo = (await bootstrapDemo(store, async (s, workspaceId) => {
    await importLines(s, workspaceId, generateDemoData({ ...SMALL_DEMO, idNamespace: workspaceId }), { events: false });
  }))!;
  const workspaceId = demo.workspace_id;
  const workspace = { workspaceId, ownerId: demo.user_id };
  const now = new Date();
  const iso = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();

  const readOnly = await createApiKey(store, { workspaceId, userId: demo.user_id, name: `Read only ${AWKWARD_TEXT}`, scopes: ['visibility:read'] });
  const revoked = await createApiKey(store, { workspaceId, userId: demo.user_id, name: 'Revoked' });
  await store.apiKeys.revoke(revoked.id, iso(0));

  const memberId = randomUUID();
  await store.accounts.insertUser({ id: memberId, email: `Member-${memberId}@Example.test`, name: AWKWARD_TEXT, created_at: iso(0) });
  await store.accounts.upsertMembership(workspaceId, memberId, 'member', iso(0));
  const token = await createMemberToken(store, { workspaceId, userId: memberId, name: 'Ops token' });
  const revokedToken = await createMemberToken(store, { workspaceId, userId: demo.user_id });
  await store.memberTokens.revoke(revokedToken.id, iso(0));

  const rotating = await createTestWebhook(store, workspace, {
    url: 'https://hooks.example.test/a',
    previousSecret: newWebhookSecret(),
    previousSecretExpiresAt: new Date(now.getTime() + 86_400_000),
  });
  const awkward = await createTestWebhook(store, workspace, { url: 'https://hooks.example.test/b?x=1&y=%09', events: ['content.status_updated'] });
  await store.webhooks.update(workspaceId, awkward.id, { description: AWKWARD_TEXT }, iso(0));

  for (let i = 0; i < 3; i += 1) {
    await store.webhookDeliveries.enqueueEvent({
      workspaceId,
      type: 'content.status_updated',
      data: { ...SAMPLE_EVENT_DATA['content.status_updated'], id: randomUUID(), title: `${AWKWARD_TEXT} ${i}` },
      at: new Date(now.getTime() - 60_000 + i),
    });
  }
  const rooms = new Map([[rotating.id, 10], [awkward.id, 10]]);
  const claim = (at: string) => store.webhookDeliveries.claimDue({ now: at, lease_until: iso(600_000), lease_token: randomUUID(), rooms, limit: 100, max_attempts: 5 });
  const first = await claim(iso(0));
  expect(first).toHaveLength(6);
  for (const delivery of first) {
    await store.webhookDeliveries.recordAttempt({
      delivery, started_at: iso(0), now: iso(5),
      outcome: { http_status: 500, response_body: AWKWARD_TEXT, response_time_ms: 5, error: null },
      resolution: { kind: 'retry', next_attempt_at: iso(10) },
    });
  }
  const second = await claim(iso(10));
  expect(second).toHaveLength(6);
  for (const [i, delivery] of second.entries()) {
    await store.webhookDeliveries.recordAttempt({
      delivery, started_at: iso(10), now: iso(20),
      outcome: i % 2 === 0
        ? { http_status: 204, response_body: '', response_time_ms: 7, error: null }
        : { http_status: null, response_body: null, response_time_ms: 15_000, error: 'timed out after 15 s' },
      resolution: i % 2 === 0 ? { kind: 'delivered' } : { kind: 'failed', disable_after: 10 },
    });
  }
  return { store, file, workspaceId, keys: [demo.key, readOnly.key, revoked.key], tokens: [token.token, revokedToken.token] };
}

/** A pool on `url`, ended when the test finishes. */
function poolForThisTest(url: string): PostgresPool {
  const pool = createPostgresPool(url);
  onTestFinished(() => pool.end());
  return pool;
}

/** A new database with every migration applied (as a copy finds a database the service already ran on), and a pool on it. */
async function migratedTarget(): Promise<{ url: string; pool: PostgresPool }> {
  const url = await createPostgresDatabase('wsapi_copy');
  const pool = poolForThisTest(url);
  await applyPostgresMigrations(pool);
  return { url, pool };
}

function sqliteTables(store: SqliteStore): string[] {
  return store.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'schema_migrations' ORDER BY name")
    .pluck().all() as string[];
}

async function postgresTables(pool: PostgresPool): Promise<string[]> {
  return (await rows<{ table_name: string }>(pool, `SELECT table_name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations' ORDER BY table_name`)).map((r) => r.table_name);
}

/** `SELECT cols FROM table ORDER BY primary key`, the same text for both databases. */
function orderedSelect(store: SqliteStore, table: string): string {
  const columns = store.db.prepare('SELECT name, pk FROM pragma_table_info(?) ORDER BY cid').all(table) as Array<{ name: string; pk: number }>;
  const key = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  const order = (key.length > 0 ? key : columns).map((c) => `"${c.name}"`).join(', ');
  return `SELECT ${columns.map((c) => `"${c.name}"`).join(', ')} FROM "${table}" ORDER BY ${order}`;
}

/** Every table's rows on both sides, ordered by primary key. */
async function bothSides(store: SqliteStore, pool: PostgresPool): Promise<Array<{ table: string; sqlite: unknown[]; postgres: unknown[] }>> {
  const tables = [];
  for (const table of sqliteTables(store)) {
    const sql = orderedSelect(store, table);
    tables.push({ table, sqlite: store.db.prepare(sql).all(), postgres: await rows(pool, sql) });
  }
  return tables;
}

async function rowCounts(pool: PostgresPool): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await postgresTables(pool)) counts[table] = (await value<number>(pool, `SELECT count(*) FROM "${table}"`))!;
  return counts;
}

/** Whether any sequence of the database has given or been set to a number (a fresh one has not). */
async function sequencesMoved(pool: PostgresPool): Promise<boolean> {
  const sequences = await rows<{ name: string }>(pool, "SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences WHERE schemaname = current_schema()");
  expect(sequences.length).toBeGreaterThan(0);
  for (const { name } of sequences) {
    if (await value<boolean>(pool, `SELECT is_called FROM ${name}`)) return true;
  }
  return false;
}

async function triggerStates(pool: PostgresPool): Promise<Array<{ table_name: string; name: string; enabled: string }>> {
  return rows(pool, `SELECT c.relname AS table_name, t.tgname AS name, t.tgenabled AS enabled FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace ORDER BY 1, 2`);
}

describe.skipIf(!postgresAvailable())('store copy: a SQLite file into PostgreSQL', () => {
  it('copies every table: each row equal to SQLite\'s, column by column, and the summary counts them', async () => {
    const source = await sourceWithEverything();
    const url = await copyIntoNewPostgres(source.file);
    const pool = poolForThisTest(url);

    expect(await postgresTables(pool)).toEqual(sqliteTables(source.store));
    const tables = await bothSides(source.store, pool);
    for (const { table, sqlite, postgres } of tables) expect({ table, rows: postgres }).toEqual({ table, rows: sqlite });
    // The data is all there: every area, and the deliveries with their attempts.
    const count = Object.fromEntries(tables.map((t) => [t.table, t.sqlite.length]));
    for (const table of ['snapshots', 'cited_urls', 'topics', 'articles', 'iq_records', 'api_keys', 'member_tokens', 'webhooks', 'webhook_events', 'event_feed']) {
      expect(count[table], table).toBeGreaterThan(0);
    }
    expect(count).toMatchObject({ api_keys: 3, member_tokens: 2, webhooks: 2, webhook_deliveries: 6, webhook_delivery_attempts: 12 });
    const awkward = await rows<{ description: string }>(pool, 'SELECT description FROM webhooks WHERE description IS NOT NULL');
    expect(awkward).toEqual([{ description: AWKWARD_TEXT }]);

    // A second copy of the same file into another database reports what it wrote, table by table.
    const summary = await copySqliteToPostgres(source.file, await createPostgresDatabase('wsapi_copy'));
    expect(Object.fromEntries(summary.tables.map((t) => [t.table, t.rows]))).toEqual(count);
    expect(summary.total).toBe(tables.reduce((sum, t) => sum + t.sqlite.length, 0));
  });

  it('copies the hashed keys, tokens and webhook secrets as they are: every key and token still finds its row', async () => {
    const source = await sourceWithEverything();
    const pool = poolForThisTest(await copyIntoNewPostgres(source.file));

    const hashes = (sql: string) => rows<Record<string, unknown>>(pool, sql);
    expect(await hashes('SELECT id, key_hash, prefix, revoked_at FROM api_keys ORDER BY id'))
      .toEqual(source.store.db.prepare('SELECT id, key_hash, prefix, revoked_at FROM api_keys ORDER BY id').all());
    expect(await hashes('SELECT id, token_hash, prefix, revoked_at FROM member_tokens ORDER BY id'))
      .toEqual(source.store.db.prepare('SELECT id, token_hash, prefix, revoked_at FROM member_tokens ORDER BY id').all());
    expect(await hashes('SELECT id, secret, previous_secret, previous_secret_expires_at FROM webhooks ORDER BY id'))
      .toEqual(source.store.db.prepare('SELECT id, secret, previous_secret, previous_secret_expires_at FROM webhooks ORDER BY id').all());
    // What authentication looks up: the hash of the presented secret.
    for (const key of source.keys) {
      expect(await value(pool, 'SELECT workspace_id FROM api_keys WHERE key_hash = ?', [hashToken(key)])).toBe(source.workspaceId);
    }
    for (const token of source.tokens) {
      expect(await value(pool, 'SELECT workspace_id FROM member_tokens WHERE token_hash = ?', [hashToken(token)])).toBe(source.workspaceId);
    }
  });

  it('sets each sequence past the numbers copied and past those SQLite gave to rows since deleted', async () => {
    const source = await sourceWithEverything();
    // The newest event goes, with its place in the feed: SQLite never gives that number again.
    const newest = source.store.db.prepare('SELECT event_id, seq FROM event_feed ORDER BY seq DESC LIMIT 1').get() as { event_id: string; seq: number };
    source.store.db.prepare('DELETE FROM webhook_events WHERE id = ?').run(newest.event_id);
    const pool = poolForThisTest(await copyIntoNewPostgres(source.file));

    expect(await value(pool, 'SELECT max(seq) FROM event_feed')).toBe(newest.seq - 1);
    expect(await value(pool, "SELECT nextval(pg_get_serial_sequence('event_feed', 'seq'))")).toBe(newest.seq + 1);
    const attempts = source.store.db.prepare('SELECT max(id) FROM webhook_delivery_attempts').pluck().get() as number;
    expect(await value(pool, "SELECT nextval(pg_get_serial_sequence('webhook_delivery_attempts', 'id'))")).toBe(attempts + 1);
    const citedUrls = source.store.db.prepare('SELECT max(id) FROM cited_urls').pluck().get() as number;
    expect(await value(pool, "SELECT nextval(pg_get_serial_sequence('cited_urls', 'id'))")).toBe(citedUrls + 1);
  });

  it('writes text, numbers, NULLs and blobs exactly: COPY escapes, NULL against the text "\\N", BYTEA, doubles and 64-bit integers', async () => {
    const { store, file } = sqliteTestStoreForThisTest();
    const { url, pool } = await migratedTarget();
    // A table of every kind of value, in both schemas (the service's own tables hold only text and integers).
    store.db.exec('CREATE TABLE value_kinds (id INTEGER PRIMARY KEY, note TEXT, payload BLOB, ratio REAL, big INTEGER) STRICT');
    await pool.query('CREATE TABLE value_kinds (id BIGINT PRIMARY KEY, note TEXT COLLATE "C", payload BYTEA, ratio DOUBLE PRECISION, big BIGINT)');
    const insert = store.db.prepare('INSERT INTO value_kinds VALUES (?, ?, ?, ?, ?)');
    insert.run(1, AWKWARD_TEXT, Buffer.from([0x00, 0x09, 0x0a, 0x0d, 0x5c, 0xff]), 0.1, 9_007_199_254_740_991);
    insert.run(2, '\\N', Buffer.alloc(0), -1.5e-300, -1);
    insert.run(3, null, null, null, null);
    insert.run(4, '', Buffer.from('\\x00\\N\t', 'latin1'), 1 / 3, 0);
    insert.run(5, '\\', Buffer.from([0x5c, 0x2e]), 1e300, BigInt('9223372036854775807'));

    await copySqliteToPostgres(file, url);

    const sql = 'SELECT id, note, payload, ratio FROM value_kinds ORDER BY id';
    expect(await rows(pool, sql)).toEqual(store.db.prepare(sql).all());
    // Past 2^53, compared as text: a JS number would round both sides alike.
    const big = 'SELECT id, CAST(big AS TEXT) AS big FROM value_kinds ORDER BY id';
    expect(await rows(pool, big)).toEqual(store.db.prepare(big).all());
    expect(await value(pool, 'SELECT big::text FROM value_kinds WHERE id = 5')).toBe('9223372036854775807');
  });

  it('switches the target\'s triggers off while copying, so none alters a copied row, and back on afterwards', async () => {
    const source = await sourceWithEverything();
    const { url, pool } = await migratedTarget();
    // A trigger that would rename every webhook it sees inserted.
    await pool.query(`CREATE FUNCTION rename_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN NEW.name := 'renamed'; RETURN NEW; END $$`);
    await pool.query('CREATE TRIGGER rename_webhook BEFORE INSERT ON webhooks FOR EACH ROW EXECUTE FUNCTION rename_webhook()');
    await pool.query('ALTER TABLE webhooks ENABLE ALWAYS TRIGGER rename_webhook');
    const before = await triggerStates(pool);
    expect(before).toEqual([
      { table_name: 'event_feed', name: 'event_feed_in_commit_order', enabled: 'O' },
      { table_name: 'webhooks', name: 'rename_webhook', enabled: 'A' },
    ]);

    await copySqliteToPostgres(source.file, url);

    const names = 'SELECT id, name FROM webhooks ORDER BY id';
    expect(await rows(pool, names)).toEqual(source.store.db.prepare(names).all());
    expect(await triggerStates(pool)).toEqual(before);
  });

  it('refuses a target that holds any row, naming the table, and writes nothing', async () => {
    const source = await sourceWithEverything();
    const { url, pool } = await migratedTarget();
    await pool.query("INSERT INTO users (id, email, name, created_at) VALUES ('u1', 'someone@example.test', 'Someone', '2026-11-01T00:00:00.000Z')");

    const refusal = copySqliteToPostgres(source.file, url);
    await expect(refusal).rejects.toThrow(StoreCopyError);
    await expect(refusal).rejects.toThrow('the PostgreSQL database already holds data (table users has rows), so nothing was copied');
    const counts = await rowCounts(pool);
    expect(Object.entries(counts).filter(([, n]) => n > 0)).toEqual([['users', 1]]);
    expect(await sequencesMoved(pool)).toBe(false);
  });

  it('takes a target the service has already started on (only its generated settings), and the source\'s cursor secret replaces the target\'s', async () => {
    const source = await sourceWithEverything();
    const sourceSecret = await source.store.settings.keepFirst('cursor_secret', 'the-secret-of-the-sqlite-service-000000', new Date());
    const { url, pool } = await migratedTarget();
    await pool.query("INSERT INTO service_settings (name, value, created_at) VALUES ('cursor_secret', 'the-secret-a-postgres-instance-made-0000', '2026-11-01T00:00:00.000Z')");

    await copySqliteToPostgres(source.file, url);
    expect((await pool.query('SELECT name, value FROM service_settings')).rows).toEqual([{ name: 'cursor_secret', value: sourceSecret }]);
  });

  it('refuses a SQLite row holding NUL (text PostgreSQL cannot store), naming its table, row and column, and writes nothing', async () => {
    const source = await sourceWithEverything();
    const id = randomUUID();
    source.store.db.prepare("INSERT INTO users (id, email, name, created_at) VALUES (?, 'nul@example.test', ?, '2026-11-01T00:00:00.000Z')").run(id, 'Nu\u0000l');
    const { url, pool } = await migratedTarget();

    const refusal = copySqliteToPostgres(source.file, url);
    await expect(refusal).rejects.toThrow(StoreCopyError);
    await expect(refusal).rejects.toThrow(new RegExp(`copying table users failed, so nothing was copied: row \\d+ \\(id ${id}\\): column name holds NUL`));
    expect(Object.values(await rowCounts(pool)).every((n) => n === 0)).toBe(true);
  });

  it('refuses a second copy into the same target, naming the first table that holds rows, and changes nothing', async () => {
    const source = await sourceWithEverything();
    const url = await copyIntoNewPostgres(source.file);
    const pool = poolForThisTest(url);
    const copied = await bothSides(source.store, pool);
    const firstWithRows = (await copySqliteToPostgres(source.file, await createPostgresDatabase('wsapi_copy'))).tables.find((t) => t.rows > 0)!.table;
    // The file moves on meanwhile: a second copy would bring a new row.
    await source.store.accounts.insertUser({ id: randomUUID(), email: 'late@example.test', name: 'Late', created_at: new Date().toISOString() });

    await expect(copySqliteToPostgres(source.file, url)).rejects.toThrow(`(table ${firstWithRows} has rows), so nothing was copied`);
    const after = await bothSides(source.store, pool);
    expect(after.map((t) => ({ table: t.table, rows: t.postgres }))).toEqual(copied.map((t) => ({ table: t.table, rows: t.postgres })));
  });

  it('when a table is incompatible midway, rolls everything back: the target is left empty, its sequences and triggers as they were', async () => {
    const source = await sourceWithEverything();
    const { url, pool } = await migratedTarget();
    // webhooks comes after most tables in foreign-key order; its names no longer fit.
    await pool.query('ALTER TABLE webhooks ALTER COLUMN name TYPE varchar(3)');
    const triggers = await triggerStates(pool);

    await expect(copySqliteToPostgres(source.file, url)).rejects.toThrow(/^copying table webhooks failed, so nothing was copied: value too long for type character varying\(3\)/);
    expect(Object.values(await rowCounts(pool)).every((n) => n === 0)).toBe(true);
    expect(await sequencesMoved(pool)).toBe(false);
    expect(await triggerStates(pool)).toEqual(triggers);
  });

  it('when a copied row breaks a foreign key (checked once every table is in), rolls everything back: the target is left empty', async () => {
    const source = await sourceWithEverything();
    // A prompt whose category is gone, as a file written without foreign-key checks could hold.
    source.store.db.pragma('foreign_keys = OFF');
    source.store.db.prepare("UPDATE prompts SET category_id = 'no-such-category' WHERE id = (SELECT min(id) FROM prompts)").run();
    source.store.db.pragma('foreign_keys = ON');
    const { url, pool } = await migratedTarget();

    await expect(copySqliteToPostgres(source.file, url)).rejects.toThrow(
      /^a copied row breaks a constraint of the PostgreSQL schema, so nothing was copied: .*prompts.*\(Key \(category_id\)=\(no-such-category\) is not present in table "categories"\.\)/);
    expect(Object.values(await rowCounts(pool)).every((n) => n === 0)).toBe(true);
    expect(await sequencesMoved(pool)).toBe(false);
  });

  it('refuses schemas that differ (a table or a column on one side only), naming it, and writes nothing', async () => {
    const source = await sourceWithEverything();
    const { url, pool } = await migratedTarget();
    source.store.db.exec('CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT) STRICT');
    source.store.db.exec("INSERT INTO notes VALUES ('n1', 'kept only in SQLite')");
    await expect(copySqliteToPostgres(source.file, url)).rejects.toThrow('the two schemas differ, so nothing was copied: only in SQLite: notes');

    await pool.query('CREATE TABLE notes (id TEXT COLLATE "C" PRIMARY KEY)');
    await expect(copySqliteToPostgres(source.file, url)).rejects.toThrow('the two schemas differ, so nothing was copied: table notes has column body on one side only');
    expect(Object.values(await rowCounts(pool)).every((n) => n === 0)).toBe(true);
  });

  it('refuses a file that does not exist, without creating it', async () => {
    const { file } = sqliteTestStoreForThisTest();
    const missing = path.join(path.dirname(file), 'missing.db');
    const { url, pool } = await migratedTarget();
    await expect(copySqliteToPostgres(missing, url)).rejects.toThrow(`no SQLite file at ${missing}`);
    expect(existsSync(missing)).toBe(false);
    expect(Object.values(await rowCounts(pool)).every((n) => n === 0)).toBe(true);
  });
});

describe.skipIf(!postgresAvailable())('cli: store copy', () => {
  it('copies the file and prints each table\'s rows and the total; --json prints the same as one JSON object', async () => {
    const source = await sourceWithEverything();
    const url = await createPostgresDatabase('wsapi_copy');
    const pool = poolForThisTest(url);

    const result = await runCliInProcess(['store', 'copy', '--from', source.file, '--to', url]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const counts = await rowCounts(pool);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`copied ${total} rows into PostgreSQL:`);
    const printed = Object.fromEntries(lines.slice(1).map((l) => l.trim().split(/\s+/)).map(([name, n]) => [name, Number(n)]));
    expect(printed).toEqual({ ...counts, total });

    const json = jsonOf(await runCliInProcess(['store', 'copy', '--from', source.file, '--to', await createPostgresDatabase('wsapi_copy'), '--json']));
    expect(json).toEqual({ tables: lines.slice(1, -1).map((l) => l.trim().split(/\s+/)).map(([table, n]) => ({ table, rows: Number(n) })), total });
  });

  it('refuses a second copy into the same database with one line on stderr and exit code 1', async () => {
    const source = await sourceWithEverything();
    const url = await createPostgresDatabase('wsapi_copy');
    expect((await runCliInProcess(['store', 'copy', '--from', source.file, '--to', url])).code).toBe(0);
    const again = await runCliInProcess(['store', 'copy', '--from', source.file, '--to', url]);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^error: the PostgreSQL database already holds data \(table \w+ has rows\), so nothing was copied: copy into a database whose tables are empty\n$/);
  });

  it('refuses bad arguments with a clear error and exit code 1, never showing a password', async () => {
    const { file } = sqliteTestStoreForThisTest();
    const missing = path.join(path.dirname(file), 'missing.db');
    const url = await createPostgresDatabase('wsapi_copy');
    const notADatabase = path.join(path.dirname(file), 'notes.txt');
    writeFileSync(notADatabase, 'not a database, just text that is long enough to fill a header page\n'.repeat(100));
    // Nothing listens on port 1.
    const unreachable = 'postgres://admin:s3cret@127.0.0.1:1/app';
    const cases: Array<[string[], string | RegExp]> = [
      [['--from', file], 'error: --to is required\n'],
      [['--to', url], 'error: --from is required\n'],
      [['--from', file, '--to', 'mysql://admin:s3cret@db.example.test/app'],
        'error: --to: unsupported database address mysql://…: use postgres:// or postgresql:// for PostgreSQL, or a file path for SQLite\n'],
      [['--from', file, '--to', path.join(path.dirname(file), 'other.db')], 'error: --to must be a PostgreSQL URL: postgres://user:password@host:5432/database\n'],
      [['--from', missing, '--to', url], `error: no SQLite file at ${missing}\n`],
      [['--from', file, '--to', url, '--form', 'x'], 'error: unknown option --form\n'],
      [['--from', notADatabase, '--to', url], /^error: cannot open .*notes\.txt as the service's SQLite database: file is not a database\n$/],
      [['--from', file, '--to', unreachable], /^error: cannot prepare the PostgreSQL database: connect ECONNREFUSED 127\.0\.0\.1:1\n$/],
    ];
    for (const [args, stderr] of cases) {
      const result = await runCliInProcess(['store', 'copy', ...args]);
      expect({ ...result, stderr: '' }, args.join(' ')).toEqual({ code: 1, stdout: '', stderr: '' });
      if (typeof stderr === 'string') expect(result.stderr).toBe(stderr);
      else expect(result.stderr).toMatch(stderr);
      expect(result.stderr).not.toContain('s3cret');
    }
    expect(existsSync(missing)).toBe(false);
    // Refused before the target was touched: not even migrated.
    expect(await postgresTables(poolForThisTest(url))).toEqual([]);
  });

  it('is listed by --help, and shows its usage with store copy --help', async () => {
    const list = await runCliInProcess(['--help']);
    expect(list.stdout).toContain('  store copy --from FILE --to postgres://');
    const usage = await runCliInProcess(['store', 'copy', '--help']);
    expect(usage).toMatchObject({ code: 0, stderr: '' });
    expect(usage.stdout).toMatch(/^usage: workspace-api store copy --from FILE --to postgres:\/\/USER:PASSWORD@HOST:PORT\/DATABASE /);
  });
});
