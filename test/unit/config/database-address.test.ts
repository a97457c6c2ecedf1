import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { parseStoreAddress } from '../../../src/store/store-address.js';

describe('the database address setting', () => {
  it('when nothing is set, is the SQLite file data/workspace.db', () => {
    expect(parseStoreAddress(loadConfig({}).databaseAddress)).toEqual({ kind: 'sqlite', file: 'data/workspace.db' });
  });

  it('when only DATABASE_PATH is set, is that SQLite file', () => {
    expect(parseStoreAddress(loadConfig({ DATABASE_PATH: '/srv/ws.db' }).databaseAddress)).toEqual({ kind: 'sqlite', file: '/srv/ws.db' });
  });

  it('when DATABASE_URL is set, is that database, even with DATABASE_PATH set too', () => {
    const url = 'postgres://app@db.internal/workspace';
    expect(parseStoreAddress(loadConfig({ DATABASE_URL: url }).databaseAddress)).toEqual({ kind: 'postgres', url });
    expect(parseStoreAddress(loadConfig({ DATABASE_URL: url, DATABASE_PATH: '/srv/ws.db' }).databaseAddress)).toEqual({ kind: 'postgres', url });
  });

  it('when DATABASE_URL is empty or blank, falls back to DATABASE_PATH', () => {
    expect(loadConfig({ DATABASE_URL: ' ', DATABASE_PATH: '/srv/ws.db' }).databaseAddress).toBe('/srv/ws.db');
  });
});
