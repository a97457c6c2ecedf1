import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A run leaves nothing in the temp folder: vitest ends its workers without their `exit` event, so
// whatever a test store keeps until the process exits stays behind (a clean clone's CI run left
// eleven migrated templates). Each store removes its own folder in `cleanup`; the template must be
// gone as soon as it is made.
describe('a test store (test/support/test-server.ts)', () => {
  it('leaves no folder in the temp folder once it is removed, before the process exits', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'wsapi-temp-folders-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = own;
    try {
      // A module instance of its own, whose template this test makes, whatever this worker made before.
      const fresh = '../../support/test-server.js?temp-folders';
      const { createSqliteTestStore } = (await import(fresh)) as typeof import('../../support/test-server.js');
      const { store, cleanup } = createSqliteTestStore();
      expect(await store.accounts.getWorkspace('00000000-0000-4000-8000-000000000000')).toBeUndefined();
      cleanup();
      expect(readdirSync(own)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(own, { recursive: true, force: true });
    }
  });
});
