import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documentedFiles, shellBlocksOf, type DocBlock } from '../support/doc-blocks.js';
import { freePort } from '../support/free-port.js';

// The shell blocks of the README and docs/ marked `runnable` are run here, in document order, in
// one bash session (a block uses what an earlier one set: README's KEY and BASE, its server), in a
// temporary directory laid out like a checkout over this checkout's own build, so whatever a
// block writes (data/, generated clients, backups) lands there. The run stops at the first block
// that fails and names its file and line. Blocks marked `no-run: reason` are listed in the log.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Read-only parts of the checkout the blocks use, linked; `examples/` is copied (blocks generate clients into it). */
const LINKED = ['package.json', 'package-lock.json', 'bin', 'dist', 'node_modules', 'src', 'scripts', 'generated', 'openapi',
  'asyncapi', 'import-format', 'contract', 'tsconfig.json', 'CHANGELOG.md', 'README.md', 'docs'];
const RUN_TIMEOUT_MS = 240_000;

function checkoutIn(dir: string): void {
  for (const entry of LINKED) if (existsSync(path.join(ROOT, entry))) symlinkSync(path.join(ROOT, entry), path.join(dir, entry));
  cpSync(path.join(ROOT, 'examples'), path.join(dir, 'examples'), { recursive: true, filter: (src) => !src.includes(`${path.sep}generated`) });
}

interface Script {
  text: string;
  /** Where each line of the script comes from (1-based script line → the document's file and line). */
  origins: Map<number, { block: DocBlock; line: number }>;
}

const PRELUDE = String.raw`set -eE -o pipefail
trap 'echo "$LINENO" > "$DOC_RUN_DIR/failed-line"' ERR
__wait_for() { # URL PID LOG: until URL answers (HTTP: any status; postgres://: accepting connections), while PID runs
  for _ in $(seq 1 300); do
    case "$1" in
      postgres://*) pg_isready -q -d "$1" && return 0 ;;
      *) curl -s -o /dev/null --max-time 2 "$1" && return 0 ;;
    esac
    kill -0 "$2" 2>/dev/null || { echo "the background block stopped before $1 answered; its output:"; cat "$3"; return 1; }
    sleep 0.2
  done
  echo "$1 did not answer within 60 s"; return 1
}`;

function scriptOf(blocks: DocBlock[]): Script {
  const lines = PRELUDE.split('\n');
  const origins: Script['origins'] = new Map();
  const push = (text: string, block: DocBlock, line: number) => {
    lines.push(text);
    origins.set(lines.length, { block, line });
  };
  for (const block of blocks) {
    push(`printf '\\n=== %s:%s %s\\n' '${block.file}' ${block.line} "$(date +%s%3N)"`, block, block.line);
    const code = block.code.split('\n');
    if (block.mark.kind === 'background') {
      const log = `"$DOC_RUN_DIR/background-${block.line}-${path.basename(block.file)}.log"`;
      push('(', block, block.line);
      code.forEach((text, k) => push(text, block, block.line + 1 + k));
      push(`) > ${log} 2>&1 &`, block, block.line);
      push(`__wait_for "${block.mark.readyUrl}" $! ${log}`, block, block.line);
    } else {
      code.forEach((text, k) => push(text, block, block.line + 1 + k));
    }
  }
  return { text: `${lines.join('\n')}\n`, origins };
}

const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/** SIGTERM to what the blocks left running (servers stop gracefully, a throwaway cluster removes itself), SIGKILL after 15 s. */
async function stopGroup(pgid: number): Promise<void> {
  if (!groupAlive(pgid)) return;
  process.kill(-pgid, 'SIGTERM');
  for (let waited = 0; waited < 15_000 && groupAlive(pgid); waited += 100) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
}

/** Runs the script in its own process group; whatever it left running is stopped by that group. */
async function runScript(dir: string, runDir: string, script: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  const scriptFile = path.join(runDir, 'blocks.sh');
  writeFileSync(scriptFile, script);
  const out = openSync(path.join(runDir, 'output.log'), 'w');
  const child = spawn('bash', ['--noprofile', '--norc', scriptFile], { cwd: dir, env, detached: true, stdio: ['ignore', out, out] });
  closeSync(out);
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(timer);
  await stopGroup(child.pid!);
  return code;
}

describe('the documentation', () => {
  const blocks = documentedFiles(ROOT).flatMap((file) => shellBlocksOf(ROOT, file));

  it('marks every shell block runnable or not runnable with a reason', () => {
    const unmarked = blocks.filter((b) => b.mark.kind === 'unmarked').map((b) => `${b.file}:${b.line}`);
    const notRun = blocks.flatMap((b) => (b.mark.kind === 'no-run' ? [`  ${b.file}:${b.line}: ${b.mark.reason}`] : []));
    console.log(`Blocks not run (${notRun.length}):\n${notRun.join('\n')}`);
    expect(unmarked, 'mark these ```sh runnable or ```sh no-run: reason (docs/README.md)').toEqual([]);
  });

  it('runs every runnable shell block in order, each exiting 0', async () => {
    const runnable = blocks.filter((b) => b.mark.kind === 'runnable' || b.mark.kind === 'background');
    expect(runnable.length).toBeGreaterThan(0);
    const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-docs-'));
    const runDir = path.join(dir, '.doc-run');
    mkdirSync(runDir);
    try {
      checkoutIn(dir);
      const { text, origins } = scriptOf(runnable);
      // A clean environment, as a reader's shell: none of the test runner's variables. Servers
      // the blocks start listen on ports chosen here (PORT, HOOKS_PORT, RECEIVER_PORT, PG_PORT, COPY_PORT).
      const env = {
        PATH: process.env.PATH, HOME: dir, TMPDIR: tmpdir(), LANG: 'C.UTF-8', DOC_RUN_DIR: runDir,
        PORT: String(await freePort()), HOOKS_PORT: String(await freePort()), RECEIVER_PORT: String(await freePort()),
        PG_PORT: String(await freePort()), COPY_PORT: String(await freePort()),
        npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_cache: path.join(process.env.HOME ?? dir, '.npm'),
      };
      const code = await runScript(dir, runDir, text, env);
      const output = readFileSync(path.join(runDir, 'output.log'), 'utf8');
      const starts = [...output.matchAll(/^=== (\S+) (\d+)$/gm)].map((m) => ({ block: m[1], at: Number(m[2]) }));
      console.log(`Seconds per block:\n${starts.map((s, i) => `  ${s.block} ${(((starts[i + 1]?.at ?? Date.now()) - s.at) / 1000).toFixed(1)}`).join('\n')}`);
      if (code !== 0) {
        const failedAt = Number(existsSync(path.join(runDir, 'failed-line')) ? readFileSync(path.join(runDir, 'failed-line'), 'utf8') : NaN);
        const origin = origins.get(failedAt);
        // Killed at the time limit, the shell records no line: the block that was running is the last one started.
        const where = origin ? `${origin.block.file}:${origin.line} (the block at line ${origin.block.line})`
          : `the block at ${starts.at(-1)?.block ?? 'the start'} (stopped after ${RUN_TIMEOUT_MS / 1000} s)`;
        expect.fail(`${where} failed (exit code ${code}).\nLast output:\n${output.split('\n').slice(-40).join('\n')}`);
      }
      console.log(`Ran ${runnable.length} blocks of ${new Set(runnable.map((b) => b.file)).size} documents.`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, RUN_TIMEOUT_MS + 30_000);
});
