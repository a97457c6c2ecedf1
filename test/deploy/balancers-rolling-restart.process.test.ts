import { describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { leftInOwnTempFolder } from '../support/own-temp-folder.js';
import { postgresAvailable } from '../support/postgres.js';
import { describeWithRedis } from '../support/redis-server.js';
import { recipeFor, rollingRestartBehind, spawnChild, systemBinary, writeConfig } from '../support/rolling-restart.js';

// Both recipes in front of the same three instances at once: each sees every restart, made by
// deploy/rolling-restart.sh as an operator runs it, and the instances, their database and Redis
// start once for the two (test/support/rolling-restart.ts).
describeWithRedis('deploy/nginx.conf and deploy/haproxy.cfg', () => {
  describe.skipIf(!postgresAvailable() && !process.env.CI)('in front of three instances over one PostgreSQL and one Redis (HAProxy polling /readyz)', () => {
    it('deploy/rolling-restart.sh restarts each instance in turn under load through both: every request ends in one success, no write twice, the limit exact', { timeout: 360_000 }, async () => {
      // What the restart makes in the temp folder (its own folder, Redis's) is gone after it: a
      // temp folder of this file's own (it runs in a process of its own), whose wsapi-* entries are ours.
      const left = await leftInOwnTempFolder(restartBehindBoth);
      expect(left.filter((name) => name.startsWith('wsapi-'))).toEqual([]);
    });
  });
});

function restartBehindBoth(): Promise<void> {
  return rollingRestartBehind([
    {
      name: 'nginx',
      start: async ({ port, instancePorts, dir }) => {
        const conf = writeConfig(dir, 'nginx.conf', recipeFor('deploy/nginx.conf', { from: /listen 8080;/, to: `listen 127.0.0.1:${port};` }, instancePorts));
        return spawnChild(systemBinary('nginx'), ['-c', conf, '-p', `${dir}/`]);
      },
    },
    {
      name: 'haproxy',
      start: async ({ port, instancePorts, dir }) => {
        const statsPort = await freePort();
        const recipe = recipeFor('deploy/haproxy.cfg', { from: /bind :8080/, to: `bind 127.0.0.1:${port}` }, instancePorts);
        expect(recipe).toContain('bind 127.0.0.1:8404');
        const cfg = writeConfig(dir, 'haproxy.cfg', recipe.replace('bind 127.0.0.1:8404', `bind 127.0.0.1:${statsPort}`));
        // deploy/rolling-restart.sh waits on its stats page for each new instance to be marked up.
        return { ...spawnChild(systemBinary('haproxy'), ['-db', '-f', cfg]), statsUrl: `http://127.0.0.1:${statsPort}/stats` };
      },
    },
  ]);
}
