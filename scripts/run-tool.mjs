// Runs a locally installed CLI (node_modules/.bin) and fails loudly, so every script reports
// which step broke instead of a bare non-zero exit.
import { execFile, spawnSync } from 'node:child_process';
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

/**
 * Runs a locally installed CLI and hands back its exit status and output, never throwing. Its
 * standard error goes to the same pipe as its standard output, so the lines keep their order.
 */
export function toolOutput(bin, args) {
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', '"$0" "$@" 2>&1', path.join(root, 'node_modules', '.bin', bin), ...args], { cwd: root, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      resolve({ status: err ? Number(err.code ?? 1) : 0, output: stdout });
    });
  });
}

/** A finding in redocly's stylish report: one `line:col  error|warning  rule  message` line each. */
export const REDOCLY_FINDING = /^\s*\d+:\d+\s+(error|warning)\s/m;
