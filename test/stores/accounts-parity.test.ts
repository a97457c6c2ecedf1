import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountStore } from '../../src/store/interfaces/accounts.js';
import { createAccountStore } from '../../src/store/sqlite/accounts.js';
import { createPostgresAccountStore } from '../../src/store/postgres/accounts.js';
import { postgresAvailable } from '../support/postgres.js';
import { openTwinDatabases, storeTwins, type TwinDatabases } from '../support/store-pair.js';

const T0 = '2026-11-01T09:00:00.000Z';
const T1 = '2026-11-02T09:00:00.000Z';

describe.skipIf(!postgresAvailable())('accounts on PostgreSQL answer every call as on SQLite', () => {
  let twins: TwinDatabases;
  let same: ReturnType<typeof storeTwins<AccountStore>>['same'];
  let refused: ReturnType<typeof storeTwins<AccountStore>>['refused'];

  beforeAll(async () => {
    twins = await openTwinDatabases();
    ({ same, refused } = storeTwins(createAccountStore(twins.sqlite), createPostgresAccountStore(twins.postgres)));
  });
  afterAll(async () => {
    await twins?.close();
  });

  it('workspaces: insert, read, count, change the subscription; a repeated id and an unknown status are refused alike', async () => {
    const id = randomUUID();
    await same('insertWorkspace', { id, name: 'Acme', subscription_status: 'active', created_at: T0 });
    expect(await same('getWorkspace', id)).toEqual({ id, name: 'Acme', subscription_status: 'active', created_at: T0 });
    expect(await same('getWorkspace', randomUUID())).toBeUndefined();
    expect(await same('countWorkspaces')).toBeGreaterThan(0);
    expect(await same('setSubscription', id, 'past_due')).toBe(true);
    expect(await same('setSubscription', randomUUID(), 'past_due')).toBe(false);
    expect(await same('getWorkspace', id)).toMatchObject({ subscription_status: 'past_due' });
    expect(await refused('insertWorkspace', { id, name: 'Again', subscription_status: 'active', created_at: T0 })).toBe('unique');
    expect(await refused('insertWorkspace', { id: randomUUID(), name: 'Bad', subscription_status: 'frozen' as 'active', created_at: T0 })).toBe('check');
  });

  it('users: found by e-mail whatever the case of its ASCII letters, and only those, as SQLite\'s NOCASE', async () => {
    const tag = randomUUID().slice(0, 8);
    const ada = { id: randomUUID(), email: `Ada.${tag}@Example.COM`, name: 'Ada', created_at: T0 };
    const elodie = { id: randomUUID(), email: `Élodie.${tag}@example.com`, name: 'Élodie', created_at: T0 };
    await same('insertUser', ada);
    await same('insertUser', elodie);
    expect(await same('getUser', ada.id)).toEqual(ada);
    expect(await same('getUser', randomUUID())).toBeUndefined();
    expect(await same('getUserByEmail', `ada.${tag}@example.com`)).toEqual(ada);
    expect(await same('getUserByEmail', `ADA.${tag}@EXAMPLE.COM`)).toEqual(ada);
    expect(await same('getUserByEmail', `Élodie.${tag}@EXAMPLE.com`)).toEqual(elodie);
    // NOCASE folds ASCII letters only: É and é are different letters to it.
    expect(await same('getUserByEmail', `élodie.${tag}@example.com`)).toBeUndefined();
    // One user per address whatever the case of its ASCII letters.
    expect(await refused('insertUser', { id: randomUUID(), email: `ADA.${tag}@example.com`, name: 'Ada again', created_at: T0 })).toBe('unique');
    // ...but É and é are two addresses.
    await same('insertUser', { id: randomUUID(), email: `élodie.${tag}@example.com`, name: 'Another', created_at: T0 });
  });

  it('memberships: upsert, read, list in (joined at, user id) code-point order, page through, count owners, delete', async () => {
    const workspace = randomUUID();
    await same('insertWorkspace', { id: workspace, name: 'Members', subscription_status: 'active', created_at: T0 });
    // Ids that sort differently by code point than in a natural-language collation.
    const ids = ['u-b', 'U-B', 'u-a', 'U_a', 'u-c'].map((name) => `${name}-${workspace}`);
    for (const [i, id] of ids.entries()) {
      await same('insertUser', { id, email: `user${i}-${workspace}@example.com`, name: `User ${i}`, created_at: T0 });
      await same('upsertMembership', workspace, id, i === 0 ? 'owner' : 'member', i < 3 ? T0 : T1);
    }
    // A second upsert changes the role and keeps the join time.
    await same('upsertMembership', workspace, ids[1]!, 'owner', T1);
    expect(await same('getMembership', workspace, ids[1]!)).toMatchObject({ role: 'owner', created_at: T0, user_name: 'User 1' });
    expect(await same('getMembership', workspace, randomUUID())).toBeUndefined();
    const all = await same('listMemberships', workspace);
    expect(all.map((m) => m.user_id)).toEqual([ids[1], ids[2], ids[0], ids[3], ids[4]]);
    let page = await same('listMembershipPage', workspace, 2);
    const paged = [...page];
    while (page.length === 2) {
      const last = page[page.length - 1]!;
      page = await same('listMembershipPage', workspace, 2, [last.created_at, last.user_id]);
      paged.push(...page);
    }
    expect(paged).toEqual(all);
    expect(await same('countOwners', workspace)).toBe(2);
    expect(await same('deleteMembership', workspace, ids[0]!)).toBe(true);
    expect(await same('deleteMembership', workspace, ids[0]!)).toBe(false);
    expect(await same('countOwners', workspace)).toBe(1);
    expect(await refused('upsertMembership', workspace, randomUUID(), 'member', T0)).toBe('foreign key');
    expect(await refused('upsertMembership', workspace, ids[2]!, 'admin' as 'owner', T0)).toBe('check');
  });
});
