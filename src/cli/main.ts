import { runCommandLine } from './run-command-line.js';

process.exitCode = await runCommandLine(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
