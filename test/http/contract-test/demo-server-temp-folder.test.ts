import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A run leaves nothing in the temp folder: vitest ends its workers without their `exit` event, so a
// demo template removed at exit stayed behind, one SQLite file per worker and per `withoutPlan`.
describe('the checker tests\' demo server (demo-server.ts)', () => {
  it('leaves no folder in the temp folder once closed, its template included, before the process exits', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'wsapi-demo-temp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = own;
    try {
      // A module instance of its own, whose template this test makes, whatever this worker made before.
      const fresh = './demo-server.js?temp-folder';
      const { startDemoServer } = (await import(fresh)) as typeof import('./demo-server.js');
      const demo = await startDemoServer();
      const me = await fetch(`${demo.server.url}/api/v1/me`, { headers: { authorization: `Bearer ${demo.workspace.key}` } });
      expect(me.status).toBe(200);
      await demo.server.close();
      expect(readdirSync(own)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(own, { recursive: true, force: true });
    }
  });
});
