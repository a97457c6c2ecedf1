// Runs a locally installed CLI (node_modules/.bin) and fails loudly, so every script reports
// which step broke instead of a bare non-zero exit.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function runTool(bin, args, { quiet = false } = {}) {
  const result = spawnSync(path.join(root, 'node_modules', '.bin', bin), args, {
    cwd: root,
    encoding: 'utf8',
    stdio: quiet ? 'pipe' : 'inherit',
  });
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(`${bin} ${args.join(' ')} failed with exit code ${result.status}`);
  }
  return result.stdout ?? '';
}
