import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/store/sqlite/database.js';
import { databaseBefore } from '../../support/migrations.js';

// A database written before migration 011 holds per-(day, platform) and per-(day, competitor)
// rollups; opening it with this version turns them into the running totals.

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A database file with every migration before 011 applied, as an earlier version left it. */
function databaseBefore011(): string {
  dir = mkdtempSync(path.join(tmpdir(), 'wsapi-migration-'));
  return databaseBefore(dir, '011', (db) => {
    const rows = [
      // prompt, day, platform, total, mentioned, cited
      ['p1', 100, 'chatgpt', 2, 1, 0],
      ['p1', 100, 'claude', 1, 1, 1],
      ['p1', 103, 'chatgpt', 3, 0, 1],
      ['p1', 104, 'claude', 0, 0, 0], // every answer of that day moved away
      ['p2', 101, 'gemini', 4, 4, 2],
    ] as const;
    for (const r of rows) db.prepare('INSERT INTO prompt_daily VALUES (?, ?, ?, ?, ?, ?)').run(...r);
    for (const r of [['p1', 100, 'c1', 2], ['p1', 103, 'c1', 1], ['p1', 103, 'c2', 0]] as const) {
      db.prepare('INSERT INTO prompt_competitor_daily VALUES (?, ?, ?, ?)').run(...r);
    }
  });
}

describe('migration 011: running totals', () => {
  it('when a database with daily rollups opens, holds the same sums as running totals and drops the old tables', () => {
    const db = openDatabase(databaseBefore011());
    try {
      expect(db.prepare('SELECT * FROM prompt_day_totals ORDER BY prompt_id, day').all()).toEqual([
        { prompt_id: 'p1', day: 100, total: 3, mentioned: 2, cited: 1, run_total: 3, run_mentioned: 2, run_cited: 1 },
        { prompt_id: 'p1', day: 103, total: 3, mentioned: 0, cited: 1, run_total: 6, run_mentioned: 2, run_cited: 2 },
        { prompt_id: 'p2', day: 101, total: 4, mentioned: 4, cited: 2, run_total: 4, run_mentioned: 4, run_cited: 2 },
      ]);
      expect(db.prepare('SELECT * FROM prompt_platform_running ORDER BY prompt_id, platform, day').all()).toEqual([
        { prompt_id: 'p1', platform: 'chatgpt', day: 100, run_total: 2, run_mentioned: 1, run_cited: 0 },
        { prompt_id: 'p1', platform: 'chatgpt', day: 103, run_total: 5, run_mentioned: 1, run_cited: 1 },
        { prompt_id: 'p1', platform: 'claude', day: 100, run_total: 1, run_mentioned: 1, run_cited: 1 },
        { prompt_id: 'p2', platform: 'gemini', day: 101, run_total: 4, run_mentioned: 4, run_cited: 2 },
      ]);
      expect(db.prepare('SELECT * FROM prompt_competitor_running ORDER BY prompt_id, competitor_id, day').all()).toEqual([
        { prompt_id: 'p1', competitor_id: 'c1', day: 100, run_mentions: 2 },
        { prompt_id: 'p1', competitor_id: 'c1', day: 103, run_mentions: 3 },
      ]);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('prompt_daily', 'prompt_competitor_daily')").all();
      expect(tables).toEqual([]);
    } finally {
      db.close();
    }
  });
});
