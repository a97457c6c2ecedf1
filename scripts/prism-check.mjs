#!/usr/bin/env node
// Prism's validation proxy (`prism proxy --errors`, @stoplight/prism-cli, which many client teams
// put in front of a service) in front of a running service: every read operation of the contract
// the service publishes goes through it with the key, and none may come back with a violation
// (an `sl-violations` header, or Prism's own error answer in the place of the service's).
//
//   node scripts/prism-check.mjs --base-url URL --key KEY [--contract OPENAPI.json] [--port N]
//
// Offline: Prism reads the contract (the one URL serves at /openapi.json, or --contract, such as
// contract/superseded/openapi-1.2.0.json) from a file and talks only to URL. Prism is 5.14.2 with
// its 5.8/5.12 packages (package.json overrides): the 5.15 and 5.16 releases refuse Node 22, and
// this check runs on every supported line (.ci/smoke.sh). Exit codes: 0 every read conforms, 1 a
// violation or a read that did not answer 2xx, 2 usage or Prism did not start.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PRISM = path.join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const USAGE = 'usage: node scripts/prism-check.mjs --base-url URL --key KEY [--contract OPENAPI.json] [--port N]';

class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { baseUrl: undefined, key: undefined, contract: undefined, port: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === '--base-url') opts.baseUrl = value().replace(/\/+$/, '');
    else if (arg === '--key') opts.key = value();
    else if (arg === '--contract') opts.contract = path.resolve(value());
    else if (arg === '--port') opts.port = Number(value());
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new UsageError(`unknown argument ${arg}`);
  }
  if (!opts.baseUrl || !opts.key) throw new UsageError('--base-url and --key are required');
  if (opts.port !== undefined && !(Number.isInteger(opts.port) && opts.port > 0 && opts.port < 65536)) throw new UsageError('--port is a port number');
  return opts;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts Prism's validation proxy; resolves once it listens, with the process and its output so far. */
function startPrism(contractFile, upstream, port) {
  const child = spawn(process.execPath, [PRISM, 'proxy', '--errors', '--host', '127.0.0.1', '--port', String(port), contractFile, upstream], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`Prism did not start within 60 s:\n${output}`));
    }, 60_000);
    const seen = (chunk) => {
      output += chunk;
      if (/Prism is listening/.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}) before it listened:\n${output}`));
    });
  });
}

/**
 * Every read of the read API (`/api/v1`), lists before the reads by id that take their first
 * item's id; each answer that must be a 200 and carry no violation, as `problems` lines.
 */
async function checkEveryRead(contract, proxy, key) {
  const reads = Object.entries(contract.paths ?? {})
    .filter(([p, item]) => p.startsWith('/api/v1/') && item.get)
    .sort(([a], [b]) => (a.match(/\{/g) ?? []).length - (b.match(/\{/g) ?? []).length || a.localeCompare(b));
  const bodies = new Map();
  const problems = [];
  const checked = [];
  for (const [template, item] of reads) {
    const { operationId } = item.get;
    let concrete = template;
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    if (names.length > 0) {
      const list = template.slice(0, template.lastIndexOf('/{'));
      const id = bodies.get(list)?.data?.items?.[0]?.id;
      if (typeof id !== 'string') {
        problems.push(`${operationId} (GET ${template}): ${list} listed nothing to read by id`);
        continue;
      }
      concrete = template.replace(`{${names[0]}}`, encodeURIComponent(id));
    }
    const response = await fetch(`${proxy}${concrete}`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' } });
    const text = await response.text();
    const violations = response.headers.get('sl-violations');
    const type = response.headers.get('content-type') ?? '';
    if (violations !== null) problems.push(`${operationId} (GET ${concrete}): sl-violations ${violations}`);
    if (response.status !== 200) problems.push(`${operationId} (GET ${concrete}): ${response.status} ${text.slice(0, 500)}`);
    if (type.startsWith('application/json')) {
      try {
        bodies.set(template, JSON.parse(text));
      } catch {
        problems.push(`${operationId} (GET ${concrete}): the JSON answer does not parse`);
      }
    }
    checked.push(`${operationId} ${response.status}`);
  }
  return { checked, problems };
}

async function servedContract(baseUrl) {
  const served = await fetch(`${baseUrl}/openapi.json`);
  if (!served.ok) throw new UsageError(`GET ${baseUrl}/openapi.json answered ${served.status}`);
  return served.json();
}

function readContract(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--contract ${file}: ${err.message}`);
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const contract = opts.contract === undefined ? await servedContract(opts.baseUrl) : readContract(opts.contract);
  const dir = mkdtempSync(path.join(tmpdir(), 'prism-check-'));
  let prism;
  try {
    const contractFile = path.join(dir, 'openapi.json');
    writeFileSync(contractFile, JSON.stringify(contract));
    const port = opts.port ?? await freePort();
    try {
      prism = await startPrism(contractFile, opts.baseUrl, port);
    } catch (err) {
      console.error(err.message);
      return 2;
    }
    const { checked, problems } = await checkEveryRead(contract, `http://127.0.0.1:${port}`, opts.key);
    console.log(`prism proxy --errors (contract ${contract.info?.version}): ${checked.length} read(s) through it, ${problems.length} problem(s)`);
    for (const line of checked) console.log(`  ${line}`);
    for (const line of problems) console.error(`  ${line}`);
    return problems.length === 0 ? 0 : 1;
  } finally {
    prism?.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main();
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`error: ${err.message}\n${USAGE}`);
  process.exitCode = 2;
}
