import { describe, expect, it } from 'vitest';
import { leftInOwnTempFolder } from '../../support/own-temp-folder.js';

// A run leaves nothing in the temp folder: vitest ends its workers without their `exit` event, so
// whatever a test store keeps until the process exits stays behind (a clean clone's CI run left
// eleven migrated templates). Each store removes its own folder in `cleanup`; the template must be
// gone as soon as it is made.
describe('a test store (test/support/test-server.ts)', () => {
  it('leaves no folder in the temp folder once it is removed, before the process exits', async () => {
    const left = await leftInOwnTempFolder(async () => {
      // A module instance of its own, whose template this test makes, whatever this worker made before.
      const fresh = '../../support/test-server.js?temp-folders';
      const { createSqliteTestStore } = (await import(fresh)) as typeof import('../../support/test-server.js');
      const { store, cleanup } = createSqliteTestStore();
      expect(await store.accounts.getWorkspace('00000000-0000-4000-8000-000000000000')).toBeUndefined();
      cleanup();
    });
    expect(left).toEqual([]);
  });
});
