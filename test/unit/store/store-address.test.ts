import { describe, expect, it } from 'vitest';
import { parseStoreAddress } from '../../../src/store/store-address.js';

describe('parseStoreAddress', () => {
  it('reads postgres:// and postgresql:// URLs, in any letter case, as PostgreSQL, keeping the URL as written', () => {
    expect(parseStoreAddress('postgres://app:s3cret@db.internal:5432/workspace')).toEqual({
      kind: 'postgres',
      url: 'postgres://app:s3cret@db.internal:5432/workspace',
    });
    expect(parseStoreAddress('postgresql://db/workspace?sslmode=require')).toEqual({ kind: 'postgres', url: 'postgresql://db/workspace?sslmode=require' });
    expect(parseStoreAddress('  POSTGRES://db/workspace ')).toEqual({ kind: 'postgres', url: 'POSTGRES://db/workspace' });
  });

  it('reads anything that is not a URL as a SQLite file', () => {
    expect(parseStoreAddress('data/workspace.db')).toEqual({ kind: 'sqlite', file: 'data/workspace.db' });
    expect(parseStoreAddress('/var/lib/wsapi/workspace.db')).toEqual({ kind: 'sqlite', file: '/var/lib/wsapi/workspace.db' });
    expect(parseStoreAddress(':memory:')).toEqual({ kind: 'sqlite', file: ':memory:' });
    expect(parseStoreAddress('C:\\data\\workspace.db')).toEqual({ kind: 'sqlite', file: 'C:\\data\\workspace.db' });
  });

  it('refuses a URL of any other database, naming its scheme and what is accepted, never echoing the rest', () => {
    for (const [address, scheme] of [['mysql://root:hunter2@db/app', 'mysql'], ['sqlite://data/workspace.db', 'sqlite'], ['redis://cache:6379', 'redis']]) {
      let message = '';
      try {
        parseStoreAddress(address!);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toBe(`unsupported database address ${scheme}://…: use postgres:// or postgresql:// for PostgreSQL, or a file path for SQLite`);
    }
  });

  it('refuses a PostgreSQL URL that is not a URL, and an empty address', () => {
    expect(() => parseStoreAddress('postgres://us er:pw@[bad/db')).toThrow('the database address postgres://… is not a valid URL');
    expect(() => parseStoreAddress('   ')).toThrow('the database address is empty');
  });
});
