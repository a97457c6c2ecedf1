import { describe, it } from 'vitest';
import { postgresAvailable } from '../support/postgres.js';
import { describeWithRedis } from '../support/redis-server.js';
import { recipeFor, rollingRestartBehind, spawnChild, systemBinary, writeConfig } from '../support/rolling-restart.js';

describeWithRedis('deploy/nginx.conf', () => {
  describe.skipIf(!postgresAvailable() && !process.env.CI)('in front of three instances over one PostgreSQL and one Redis', () => {
    it('restarts each instance in turn under load: every request ends in one success, no write twice, the limit exact', { timeout: 360_000 }, async () => {
      await rollingRestartBehind({
        name: 'nginx',
        start: async ({ port, instancePorts, dir }) => {
          const conf = writeConfig(dir, 'nginx.conf', recipeFor('deploy/nginx.conf', { from: /listen 8080;/, to: `listen 127.0.0.1:${port};` }, instancePorts));
          return spawnChild(systemBinary('nginx'), ['-c', conf, '-p', `${dir}/`]);
        },
      });
    });
  });
});
