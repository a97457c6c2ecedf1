import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordOrder, RecordPage } from '../../src/store/interfaces/list-pages.js';
import { prepareRecordList } from '../../src/store/sqlite/keyset.js';
import { prepareRecordList as preparePostgresRecordList } from '../../src/store/postgres/keyset.js';
import { postgresAvailable } from '../support/postgres.js';
import { openTwinDatabases, type TwinDatabases } from '../support/store-pair.js';

interface Listed {
  id: string;
  created_at: string;
  updated_at: string;
}

const LIST = { select: 'SELECT id, created_at, updated_at FROM topics', where: 'workspace_id = @workspace_id', createdAt: 'created_at', updatedAt: 'updated_at', id: 'id' };

describe.skipIf(!postgresAvailable())('record lists on PostgreSQL page exactly as on SQLite', () => {
  let twins: TwinDatabases;
  let workspaceId: string;

  beforeAll(async () => {
    twins = await openTwinDatabases();
    ({ workspaceId } = await twins.addWorkspaceWithOwner());
    // Ties on both times, and ids whose code-point order differs from a natural-language one.
    const topics: Array<[string, string, string]> = [
      ['b-topic', '2026-11-01T00:00:00.000Z', '2026-11-05T00:00:00.000Z'],
      ['B-topic', '2026-11-01T00:00:00.000Z', '2026-11-03T00:00:00.000Z'],
      ['a-topic', '2026-11-01T00:00:00.000Z', '2026-11-05T00:00:00.000Z'],
      ['_topic', '2026-11-02T00:00:00.000Z', '2026-11-02T00:00:00.000Z'],
      ['é-topic', '2026-11-02T00:00:00.000Z', '2026-11-06T00:00:00.000Z'],
      ['Z-topic', '2026-11-03T00:00:00.000Z', '2026-11-04T00:00:00.000Z'],
      ['z-topic', '2026-10-30T00:00:00.000Z', '2026-11-05T00:00:00.000Z'],
    ];
    for (const [name, createdAt, updatedAt] of topics) {
      await twins.insertBoth(
        `INSERT INTO topics (id, workspace_id, name, stage, keywords, total_msv, msv_badge, avg_kd, kd_badge, coverage, created_at, updated_at)
         VALUES (@id, @workspaceId, @id, 'READY', '[]', 0, 'LOW', 0, 'LOW', 0, @createdAt, @updatedAt)`,
        { id: `${name}-${workspaceId}`, workspaceId, createdAt, updatedAt },
      );
    }
  });
  afterAll(async () => {
    await twins?.close();
  });

  for (const order of ['created_at', 'updated_at'] as RecordOrder[]) {
    for (const updatedAfter of [null, '2026-11-04T00:00:00.000Z']) {
      it(`order=${order}, updated after ${updatedAfter ?? 'any time'}: the same pages, three rows at a time`, async () => {
        const fromSqlite = prepareRecordList(twins.sqlite, LIST);
        const fromPostgres = preparePostgresRecordList(twins.postgres, LIST);
        const params = { workspace_id: workspaceId };
        const listed: Listed[] = [];
        let page: RecordPage = { order, updatedAfter, limit: 3 };
        for (;;) {
          const expected = fromSqlite<Listed>(params, page);
          expect(await fromPostgres<Listed>(params, page)).toEqual(expected);
          listed.push(...expected);
          if (expected.length < page.limit) break;
          const last = expected[expected.length - 1]!;
          page = { ...page, after: [last[order], last.id] };
        }
        const all = fromSqlite<Listed>(params, { order, updatedAfter, limit: 100 });
        expect(listed).toEqual(all);
        expect(all.length).toBe(updatedAfter === null ? 7 : 4);
      });
    }
  }
});
