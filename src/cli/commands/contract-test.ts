import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { Command } from '../command.js';
import { CliError, type Options } from '../args.js';
import { exitCodeOf, type ContractTestReport } from '../../contract-test/report.js';
import { summaryText } from '../../contract-test/summary-report.js';

export function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`--${name} "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--${name} must be an http or https URL`);
  return raw.replace(/\/+$/, '');
}

export function wholeNumber(raw: string | undefined, name: string, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new CliError(`--${name} "${raw}" must be a whole number from ${min} to ${max}`);
  return Number(raw);
}

export function noPositional(options: Options, usage: string): void {
  const extra = options.positional(0);
  if (extra !== undefined) throw new CliError(`unexpected "${extra}"; usage: ${usage}`);
}

/** The seed every generated input derives from: given, or drawn and printed so the run can be repeated. */
export function seedOption(options: Options): number {
  return wholeNumber(options.optional('seed'), 'seed', 0, 2 ** 31 - 1) ?? randomInt(2 ** 31 - 1);
}

const USAGE = 'contract-test --base-url URL --key KEY [--token MEMBER_TOKEN] [--limited-key KEY] [--allow-writes] [--webhook-url URL] [--budget N] [--seed N] [--junit FILE]   (checks a running server against the contract)';

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
    const junit = options.optional('junit');
    if (allowWrites && token === undefined) throw new CliError('--allow-writes needs --token: the administration API takes a member token');
    // Loaded here, not at the top: every other command starts without the checker.
    const [{ runContractTest }, { apiJUnitCases, junitXml }, { curlLine }] = await Promise.all([
      import('../../contract-test/run-contract-test.js'),
      import('../../contract-test/junit-report.js'),
      import('../../contract-test/curl-line.js'),
    ]);
    const run = await runContractTest({
      baseUrl, key, token, limitedKey, allowWrites, webhookUrl, budget, seed,
      progress: (line) => stderr.write(`${line}\n`),
    });
    if (junit !== undefined) {
      const cases = apiJUnitCases(baseUrl, run.cases, run.notReached, (c) => curlLine(baseUrl, c.request));
      writeFileSync(junit, junitXml('workspace-api contract-test', cases, run.report.duration_ms));
    }
    return run.report;
  },
  text: (report: ContractTestReport) => summaryText(report),
  exitCode: (report: ContractTestReport) => exitCodeOf(report),
};
