// A throwaway PostgreSQL for trying the service on it: `npm run postgres:local [-- --port N]`.
// Prints the DATABASE_URL to use and removes the cluster (and its data) on Ctrl-C.
import { startPostgresCluster } from './postgres-cluster.js';

const portFlag = process.argv.indexOf('--port');
const port = portFlag === -1 ? 5433 : Number(process.argv[portFlag + 1]);
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error('--port takes a port number, 1 to 65535');
  process.exit(2);
}
const cluster = await startPostgresCluster({ port });
console.log(`PostgreSQL is running (data removed when you stop it with Ctrl-C):
  DATABASE_URL=${cluster.url()} npm run cli -- serve --demo`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    cluster.stop();
    process.exit(0);
  });
}
setInterval(() => undefined, 1 << 30);
