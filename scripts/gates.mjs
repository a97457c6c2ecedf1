// The gates `npm test` runs before the tests, on two cores at once: the typecheck and the
// type-aware linter over one TypeScript program (`npm run typecheck` and `npm run lint` would each
// build it; scripts/typecheck-and-lint.mjs), about half of the gates' CPU, beside the others in
// their order. Each gate's output is printed whole when it ends, under its name; the run stops at
// the first gate that fails, with its exit status.
//   node scripts/gates.mjs
import { spawn } from 'node:child_process';
import { root } from './run-tool.mjs';

const lanes = [
  ['typecheck-and-lint'],
  ['spec:lint', 'codegen:check', 'contract:check', 'unused', 'deps:check', 'build'],
];
const children = new Set();

function gate(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '-s', name], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code, signal) => {
      children.delete(child);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`── ${name}: ${code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n${output}`);
      resolve(code ?? 1);
    });
  });
}

let failed = 0;
await Promise.all(lanes.map(async (lane) => {
  for (const name of lane) {
    if (failed) return;
    const code = await gate(name);
    if (code !== 0 && !failed) {
      failed = code;
      for (const child of children) child.kill();
    }
  }
}));
process.exit(failed);
