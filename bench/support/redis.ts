import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from '../../scripts/postgres-cluster.js';

/** A `redis-server` from PATH on a free loopback port, persisting nothing; kill `child` to stop it. */
export async function startRedisServer(): Promise<{ port: number; url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let tries = 0; ; tries++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1').once('connect', () => { socket.destroy(); resolve(true); }).once('error', () => resolve(false));
    });
    if (up) break;
    if (tries > 200) throw new Error('redis-server did not start (is it on PATH?)');
    await new Promise((r) => setTimeout(r, 25));
  }
  return { port, url: `redis://127.0.0.1:${port}`, child };
}
