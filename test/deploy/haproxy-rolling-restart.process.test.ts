import { describe, it } from 'vitest';
import { postgresAvailable } from '../support/postgres.js';
import { describeWithRedis } from '../support/redis-server.js';
import { recipeFor, rollingRestartBehind, spawnChild, systemBinary, writeConfig } from '../support/rolling-restart.js';

describeWithRedis('deploy/haproxy.cfg', () => {
  describe.skipIf(!postgresAvailable() && !process.env.CI)('in front of three instances over one PostgreSQL and one Redis, polling /readyz', () => {
    it('restarts each instance in turn under load: every request ends in one success, no write twice, the limit exact', { timeout: 360_000 }, async () => {
      await rollingRestartBehind({
        name: 'haproxy',
        start: async ({ port, instancePorts, dir }) => {
          const cfg = writeConfig(dir, 'haproxy.cfg', recipeFor('deploy/haproxy.cfg', { from: /bind :8080/, to: `bind 127.0.0.1:${port}` }, instancePorts));
          return spawnChild(systemBinary('haproxy'), ['-db', '-f', cfg]);
        },
      });
    });
  });
});
