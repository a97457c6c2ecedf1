import { afterEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempDatabase } from './run-cli.js';

let db: ReturnType<typeof tempDatabase> | undefined;
afterEach(() => {
  db?.cleanup();
  db = undefined;
});

/** `serve` either refuses at once (its exit) or starts (its first line): whichever comes first. */
async function serveOutcome(args: string[]): Promise<{ exit: number | null; stderr: string } | 'listening'> {
  const { child, exited } = spawnCli(['serve', ...args, '--host', '127.0.0.1', '--db', db!.file, '--json']);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const listening = new Promise<'listening'>((resolve) => child.stdout!.once('data', () => resolve('listening')));
  const outcome = await Promise.race([exited.then((exit) => ({ exit, stderr })), listening]);
  if (outcome === 'listening') {
    child.kill('SIGTERM');
    await exited;
  }
  return outcome;
}

describe('integer options and settings', () => {
  it('serve --port takes only plain decimal digits: 0x0, 1e1 and " 0" are refused before anything starts', async () => {
    db = tempDatabase();
    const ports = ['0x0', '1e1', ' 0'];
    const outcomes = await Promise.all(ports.map((port) => serveOutcome(['--port', port])));
    expect(outcomes).toEqual(ports.map((port) => ({ exit: 1, stderr: `error: --port "${port}" is not a port number\n` })));
  });

  it('simulate --count and --interval take only plain decimal digits', async () => {
    db = tempDatabase();
    const cases = [['count', '1e1'], ['count', '0x10'], ['interval', '5.0']] as const;
    const results = await Promise.all(cases.map(([option, value]) =>
      runCli(['simulate', '--workspace', '00000000-0000-4000-8000-000000000000', `--${option}`, value, '--db', db!.file])));
    expect(results.map((r) => [r.code, r.stderr])).toEqual(cases.map(([option, value]) => [1, `error: --${option} "${value}" must be a positive integer\n`]));
  });

  it('an integer setting in the environment (PORT, RATE_LIMIT_QUOTA, ...) written otherwise is refused at start', async () => {
    db = tempDatabase();
    const cases = [['PORT', '0x10'], ['RATE_LIMIT_QUOTA', '1e3'], ['WEBHOOK_TIMEOUT_MS', ' 5']] as const;
    const results = await Promise.all(cases.map(([name, value]) =>
      runCli(['workspace', 'create', '--name', 'Acme'], { DATABASE_PATH: db!.file, [name]: value })));
    cases.forEach(([name, value], i) => {
      expect(results[i]!.code, `${name}=${JSON.stringify(value)}`).toBe(1);
      expect(results[i]!.stderr).toContain(`${name} must be a non-negative integer in decimal digits, got "${value}"`);
    });
  });
});
