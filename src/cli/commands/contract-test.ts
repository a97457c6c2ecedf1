import { randomInt } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from '../command.js';
import { CliError, type Options } from '../args.js';
import { wholeNumber } from '../validate.js';
import { exitCodeOf, webhookExitCodeOf, type ContractTestReport, type WebhookTestReport } from '@workspace-read-api/contract-test/report.js';
import { summaryText, webhookSummaryText } from '@workspace-read-api/contract-test/summary-report.js';
import { escapeControls } from '@workspace-read-api/contract-test/terminal-text.js';

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`--${name} "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--${name} must be an http or https URL`);
  return raw.replace(/\/+$/, '');
}

/** `--max-body-bytes`: how much of a body from the other side is read at most (1 KiB to 4 GiB). */
function maxBodyBytesOption(options: Options): number | undefined {
  return wholeNumber(options.optional('max-body-bytes'), 'max-body-bytes', 1024, 2 ** 32);
}

/** Progress lines on stderr: they carry what the other side sent (scopes, event names), so they are escaped like the report. */
function progressTo(stderr: NodeJS.WritableStream): (line: string) => void {
  return (line) => stderr.write(`${escapeControls(line)}\n`);
}

function noPositional(options: Options, usage: string): void {
  const extra = options.positional(0);
  if (extra !== undefined) throw new CliError(`unexpected "${extra}"; usage: ${usage}`);
}

/**
 * Every operationId of the bundled contract (the one the checker holds a server to), and the name
 * the checker gives the HEAD of each GET the contract lists no HEAD operation for (`headMe`).
 */
async function contractOperationIds(document: object | undefined): Promise<string[]> {
  const { loadOpenApiDocument } = await import('@workspace-read-api/contract/documents.js');
  const { headOperationId } = await import('@workspace-read-api/contract-test/openapi-contract.js');
  const paths = ((document ?? loadOpenApiDocument()) as { paths?: Record<string, Record<string, { operationId?: string }>> }).paths ?? {};
  return Object.values(paths).flatMap((item) => {
    const ids = Object.values(item).flatMap((op) => (op?.operationId ? [op.operationId] : []));
    return item.get?.operationId && !item.head ? [...ids, headOperationId(item.get.operationId)] : ids;
  });
}

/** A list of operationIds of the bundled contract (`--operations`, `--allow-unreached`); undefined when not given. */
async function operationIds(options: Options, name: string, document: object | undefined): Promise<string[] | undefined> {
  const raw = options.optional(name);
  if (raw === undefined) return undefined;
  const ids = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const known = await contractOperationIds(document);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0) throw new CliError(`--${name} names ${unknown.join(', ')}, which the contract does not document`);
  return ids;
}

/**
 * Another OpenAPI document (bundled JSON) to hold the server to instead of the one this release
 * was built with: a newer release, or a copy with an operation added.
 */
function readContract(file: string): object {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CliError(`--contract ${file}: ${(err as Error).message}`);
  }
  if (typeof document !== 'object' || document === null || !('paths' in document)) throw new CliError(`--contract ${file} is not an OpenAPI document (no paths)`);
  return document;
}

/** The seed every generated input derives from: given, or drawn and printed so the run can be repeated. */
function seedOption(options: Options): number {
  return wholeNumber(options.optional('seed'), 'seed', 0, 2 ** 31 - 1) ?? randomInt(2 ** 31 - 1);
}

const USAGE = 'contract-test --base-url URL --key KEY [--token MEMBER_TOKEN] [--limited-key KEY] [--allow-writes] [--contract OPENAPI.json] [--operations OPERATION_ID,...] [--allow-unreached OPERATION_ID,...] [--full] [--examples N] [--max-response-time MS] [--request-timeout SECONDS] [--max-body-bytes N] [--webhook-url URL] [--budget N] [--seed N] [--junit FILE]   (checks a running server against the contract)';

export const contractTest: Command = {
  name: 'contract-test',
  usage: USAGE,
  async run({ options, stderr }) {
    noPositional(options, USAGE);
    const baseUrl = httpUrl('base-url', options.required('base-url'));
    const key = options.required('key');
    const token = options.optional('token');
    const limitedKey = options.optional('limited-key');
    const allowWrites = options.flag('allow-writes');
    const webhookUrl = httpUrl('webhook-url', options.optional('webhook-url') ?? 'https://example.com/workspace-api-contract-test');
    const budget = wholeNumber(options.optional('budget'), 'budget', 1, 1_000_000);
    const seed = seedOption(options);
    const examples = wholeNumber(options.optional('examples'), 'examples', 1, 10_000);
    const maxResponseTimeMs = wholeNumber(options.optional('max-response-time'), 'max-response-time', 1, 3_600_000);
    const requestTimeoutSeconds = wholeNumber(options.optional('request-timeout'), 'request-timeout', 1, 3_600);
    const maxBodyBytes = maxBodyBytesOption(options);
    const full = options.flag('full');
    const junit = options.optional('junit');
    const contractFile = options.optional('contract');
    const document = contractFile === undefined ? undefined : readContract(contractFile);
    const allowUnreached = await operationIds(options, 'allow-unreached', document) ?? [];
    const operations = await operationIds(options, 'operations', document);
    if (allowWrites && token === undefined) throw new CliError('--allow-writes needs --token: the administration API takes a member token');
    // Loaded here, not at the top: every other command starts without the checker.
    const [{ runContractTest }, { apiJUnitCases, junitXml }, { curlLine }] = await Promise.all([
      import('@workspace-read-api/contract-test/run-contract-test.js'),
      import('@workspace-read-api/contract-test/junit-report.js'),
      import('@workspace-read-api/contract-test/curl-line.js'),
    ]);
    const run = await runContractTest({
      baseUrl, key, token, limitedKey, allowWrites, webhookUrl, budget, seed, allowUnreached, examples, maxResponseTimeMs, full, operations, document, maxBodyBytes,
      timeoutMs: requestTimeoutSeconds === undefined ? undefined : requestTimeoutSeconds * 1000,
      progress: progressTo(stderr),
    });
    if (junit !== undefined) {
      const cases = apiJUnitCases(baseUrl, { cases: run.cases, notReached: run.notReached, unreached: run.report.unreached_operations }, (c) => curlLine(baseUrl, c.request));
      writeFileSync(junit, junitXml('workspace-api contract-test', cases, run.report.duration_ms));
    }
    return run.report;
  },
  text: (report: ContractTestReport) => summaryText(report),
  exitCode: (report: ContractTestReport) => exitCodeOf(report),
};

const WEBHOOKS_USAGE = 'contract-test webhooks --listen [HOST:]PORT --secret whsec_... [--public-url URL] [--trigger --base-url URL --token MEMBER_TOKEN --workspace ID --webhook ID] [--count N] [--timeout SECONDS] [--max-body-bytes N] [--junit FILE]   (receives webhook deliveries and checks them against the contract)';

function listenAddress(raw: string): { host: string; port: number } {
  const match = /^(?:(.+):)?(\d+)$/.exec(raw);
  const port = Number(match?.[2]);
  if (!match || port > 65535) throw new CliError(`--listen "${raw}" must be PORT or HOST:PORT`);
  return { host: (match[1] ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1'), port };
}

export const contractTestWebhooks: Command = {
  name: 'contract-test webhooks',
  usage: WEBHOOKS_USAGE,
  async run({ options, stderr }) {
    noPositional(options, WEBHOOKS_USAGE);
    const { host, port } = listenAddress(options.required('listen'));
    const secret = options.required('secret');
    if (!/^whsec_[A-Za-z0-9+/=]+$/.test(secret)) throw new CliError('--secret must be the webhook\'s whsec_… signing secret');
    const publicUrl = options.optional('public-url');
    const trigger = options.flag('trigger');
    const triggerOptions = ['base-url', 'token', 'workspace', 'webhook'].map((name) => [name, options.optional(name)] as const);
    if (!trigger && triggerOptions.some(([, v]) => v !== undefined)) throw new CliError('--base-url, --token, --workspace and --webhook go with --trigger');
    const missing = triggerOptions.filter(([, v]) => v === undefined).map(([n]) => `--${n}`);
    if (trigger && missing.length > 0) throw new CliError(`--trigger needs ${missing.join(', ')}`);
    const values = Object.fromEntries(triggerOptions) as Record<string, string>;
    const count = wholeNumber(options.optional('count'), 'count', 1, 1_000_000);
    const timeoutSeconds = wholeNumber(options.optional('timeout'), 'timeout', 1, 86_400);
    const junit = options.optional('junit');
    const [{ runWebhookTest }, { junitXml }] = await Promise.all([
      import('@workspace-read-api/contract-test/run-webhook-test.js'),
      import('@workspace-read-api/contract-test/junit-report.js'),
    ]);
    const controller = new AbortController();
    const stop = (): void => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      const run = await runWebhookTest({
        host, port, secret, count,
        publicUrl: publicUrl === undefined ? undefined : httpUrl('public-url', publicUrl),
        trigger: trigger ? { baseUrl: httpUrl('base-url', values['base-url']!), token: values.token!, workspaceId: values.workspace!, webhookId: values.webhook! } : undefined,
        timeoutMs: timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000,
        signal: controller.signal,
        maxBodyBytes: maxBodyBytesOption(options),
        progress: progressTo(stderr),
      });
      if (junit !== undefined) writeFileSync(junit, junitXml('workspace-api contract-test webhooks', run.junitCases, run.report.duration_ms));
      return run.report;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  },
  text: (report: WebhookTestReport) => webhookSummaryText(report),
  exitCode: (report: WebhookTestReport) => webhookExitCodeOf(report),
};
