import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/**
 * A throwaway PostgreSQL cluster started from the system's server binaries (Debian's `postgresql`
 * package puts `initdb` and `pg_ctl` in the directory `pg_config --bindir` names, not on PATH) in
 * a temp directory, on a free loopback port, with fsync off. Used by the test setup and by
 * `npm run postgres:local` (docs/operators.md, "Running on PostgreSQL").
 */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:PORT/<database>` (trust authentication on loopback). */
  url(database?: string): string;
  port: number;
  /** Stops the server and removes its directory. */
  stop(): void;
  /** Stops the server at once (`-m fast`: sessions are ended), keeping its data: an outage. */
  halt(): void;
  /** Starts the halted server again, on the same port with the same data. */
  resume(): void;
}

const INSTALL_HINT =
  'install the server binaries (Debian/Ubuntu: `apt-get install -y postgresql`; they land in the ' +
  'directory `pg_config --bindir` prints)';

/** The directory holding initdb and pg_ctl, or undefined with the reason when there is none. */
export function findPostgresBinaries(): { bindir: string } | { missing: string } {
  let bindir: string;
  try {
    bindir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    return { missing: `pg_config is not on PATH: ${INSTALL_HINT}` };
  }
  for (const tool of ['initdb', 'pg_ctl']) {
    if (!existsSync(path.join(bindir, tool))) return { missing: `${tool} is not in ${bindir}: ${INSTALL_HINT}` };
  }
  return { bindir };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * initdb refuses to run as root: as root, the cluster's directory belongs to the `postgres` user
 * and the server tools run as that user.
 */
function runAs(asPostgresUser: boolean, command: string, args: string[]): void {
  const result = asPostgresUser
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${path.basename(command)} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout || result.error?.message}`);
  }
}

export async function startPostgresCluster(options: { port?: number } = {}): Promise<PostgresCluster> {
  const found = findPostgresBinaries();
  if ('missing' in found) throw new Error(`PostgreSQL is not available: ${found.missing}`);
  const { bindir } = found;
  const asPostgresUser = userInfo().uid === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-pg-'));
  if (asPostgresUser) {
    const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  const port = options.port ?? (await freePort());
  runAs(asPostgresUser, path.join(bindir, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const serverOptions = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  const pgCtl = (...args: string[]) => runAs(asPostgresUser, path.join(bindir, 'pg_ctl'), ['-D', data, ...args]);
  const start = () => pgCtl('-o', serverOptions, '-l', path.join(dir, 'server.log'), '-w', '-t', '30', 'start');
  start();
  let stopped = false;
  return {
    port,
    halt: () => pgCtl('-m', 'fast', '-w', 'stop'),
    resume: start,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        runAs(asPostgresUser, path.join(bindir, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
