import { randomUUID } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkedLines } from '../../src/import/checked-lines.js';
import { DatabaseBusyError } from '../../src/store/errors.js';
import { createPostgresImportStore } from '../../src/store/postgres/import/import-store.js';
import { value } from '../../src/store/postgres/query.js';
import { categoryLine } from '../support/import-records.js';
import { createMigratedPostgresPool, postgresAvailable } from '../support/postgres.js';
import { until } from '../support/wait.js';

async function* batches(...lines: string[][]): AsyncGenerator<string[]> {
  for (const batch of lines) yield batch;
}

describe.skipIf(!postgresAvailable())('import on PostgreSQL while another import runs', () => {
  it('refuses at once with DatabaseBusyError when told not to wait, or waits its turn telling onWaiting once, then applies its file after the first', async () => {
    const pool = await createMigratedPostgresPool();
    onTestFinished(() => pool.end());
    const workspaceId = randomUUID();
    await pool.query("INSERT INTO workspaces (id, name, created_at) VALUES ($1, 'Lock', '2026-01-01T00:00:00.000Z')", [workspaceId]);
    const imports = createPostgresImportStore(pool);
    const id = randomUUID();

    // The first import holds the lock while its file is still arriving.
    let arrive!: () => void;
    const rest = new Promise<void>((resolve) => (arrive = resolve));
    let reading = false;
    async function* slowFile(): AsyncGenerator<string[]> {
      yield [categoryLine({ id, name: 'First' }).line];
      reading = true;
      await rest;
      yield [categoryLine({ name: 'Also first' }).line];
    }
    const first = imports.run(workspaceId, checkedLines(slowFile()), { events: true, lock: {}, now: () => new Date() });
    await until(() => reading, 10_000, 'the first import reading its file');

    const refused = imports.run(workspaceId, checkedLines(batches([categoryLine({ name: 'Refused' }).line])), { events: true, lock: { wait: false }, now: () => new Date() });
    await expect(refused).rejects.toBeInstanceOf(DatabaseBusyError);

    let waits = 0;
    const second = imports.run(workspaceId, checkedLines(batches([categoryLine({ id, name: 'Second' }).line])), {
      events: true,
      lock: { onWaiting: () => (waits += 1) },
      now: () => new Date(),
    });
    await until(() => waits === 1, 10_000, 'the second import waiting');
    arrive();
    await expect(first).resolves.toMatchObject({ records: 2, inserted: 2 });
    await expect(second).resolves.toMatchObject({ records: 1, updated: 1 });
    expect(waits).toBe(1);
    expect(await value(pool, 'SELECT name FROM categories WHERE id = ?', [id])).toBe('Second');
    expect(await value(pool, "SELECT count(*) FROM categories WHERE name = 'Refused'")).toBe(0);
  });
});
