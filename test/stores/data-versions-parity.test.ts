import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataVersionStore } from '../../src/store/sqlite/data-versions.js';
import { createPostgresDataVersionStore } from '../../src/store/postgres/data-versions.js';
import { postgresAvailable } from '../support/postgres.js';
import { openTwinDatabases, storeTwins, type TwinDatabases } from '../support/store-pair.js';

describe.skipIf(!postgresAvailable())('data versions on PostgreSQL answer every call as on SQLite', () => {
  let twins: TwinDatabases;
  let versions: ReturnType<typeof storeTwins<ReturnType<typeof createDataVersionStore>>>;

  beforeAll(async () => {
    twins = await openTwinDatabases();
    versions = storeTwins(createDataVersionStore(twins.sqlite), createPostgresDataVersionStore(twins.postgres));
  });
  afterAll(async () => {
    await twins?.close();
  });

  it('a workspace is at 0 until raised, then goes up by one per raise, apart from other workspaces', async () => {
    const [{ workspaceId: a }, { workspaceId: b }] = [await twins.addWorkspaceWithOwner(), await twins.addWorkspaceWithOwner()];
    expect(await versions.same('get', a)).toBe(0);
    await versions.same('raise', a);
    await versions.same('raise', a);
    await versions.same('raise', b);
    expect(await versions.same('get', a)).toBe(2);
    expect(await versions.same('get', b)).toBe(1);
    expect(await versions.refused('raise', randomUUID())).toBe('foreign key');
  });
});
