import { describe, expect, it } from 'vitest';
import { leftInOwnTempFolder } from '../../support/own-temp-folder.js';

// A run leaves nothing in the temp folder: vitest ends its workers without their `exit` event, so a
// demo template removed at exit stayed behind, one SQLite file per worker and per `withoutPlan`.
describe('the checker tests\' demo server (demo-server.ts)', () => {
  it('leaves no folder in the temp folder once closed, its template included, before the process exits', async () => {
    const left = await leftInOwnTempFolder(async () => {
      // A module instance of its own, whose template this test makes, whatever this worker made before.
      const fresh = './demo-server.js?temp-folder';
      const { startDemoServer } = (await import(fresh)) as typeof import('./demo-server.js');
      const demo = await startDemoServer();
      const me = await fetch(`${demo.server.url}/api/v1/me`, { headers: { authorization: `Bearer ${demo.workspace.key}` } });
      expect(me.status).toBe(200);
      await demo.server.close();
    });
    expect(left).toEqual([]);
  });
});
