import { unsupportedNodeMessage } from '../supported-node.js';

// The check comes before anything else is loaded: the rest of the command line loads
// better-sqlite3, which crashes an unsupported Node instead of refusing it.
const refusal = unsupportedNodeMessage(process.versions.node);
if (refusal) {
  process.stderr.write(refusal);
  process.exitCode = 1;
} else {
  const { runCommandLine } = await import('./run-command-line.js');
  process.exitCode = await runCommandLine(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
}
