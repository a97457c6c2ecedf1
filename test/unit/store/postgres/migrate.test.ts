import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { postgresMigrationNames } from '../../../../src/store/postgres/migrate.js';

describe('PostgreSQL migration files', () => {
  it('are one for every SQLite migration, under the same name, and none besides', () => {
    const sqlite = readdirSync(new URL('../../../../src/store/sqlite/migrations/', import.meta.url)).filter((f) => f.endsWith('.sql')).sort();
    expect(sqlite.length).toBeGreaterThan(0);
    expect(postgresMigrationNames()).toEqual(sqlite);
  });
});
