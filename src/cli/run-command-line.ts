import { loadConfig } from '../config.js';
import { openStore, PostgresUnreachableError, StoreAddressError, type Store } from '../store/index.js';
import { CliError, Options, parseArgs } from './args.js';
import type { Command, CommandIo } from './command.js';
import { commands } from './commands/index.js';
// What a command prints may carry text another party chose (a server's answer, a webhook's body).
import { escapeControls, jsonLine } from '@workspace-read-api/contract-test/terminal-text.js';

/** The options a command accepts are the ones its usage line shows. */
function optionsOf(usageLine: string): string[] {
  return [...usageLine.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!);
}

function usage(): string {
  return ['usage: workspace-api <command> [--db PATH] [--json]', '', ...commands.map((c) => `  ${c.usage}`)].join('\n');
}

/** The command named by the most words: `contract-test webhooks` before `contract-test`. */
function findCommand(words: readonly string[]): Command | undefined {
  const matching = commands.filter((c) => c.name.split(' ').every((w, i) => words[i] === w));
  return matching.sort((a, b) => b.name.split(' ').length - a.name.split(' ').length)[0];
}

/**
 * Runs one command line with the given streams; returns the exit code. Errors are one line on
 * stderr and exit code 1; a command may choose another code for its result (`exitCode`).
 */
export async function runCommandLine(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseArgs(argv);
  const command = findCommand(parsed.words);
  if (!command) {
    if (parsed.words.length === 0 || parsed.options.has('help')) {
      io.stdout.write(`${usage()}\n`);
      return parsed.words.length === 0 && !parsed.options.has('help') ? 1 : 0;
    }
    io.stderr.write(`error: unknown command "${parsed.words.join(' ')}"; run with --help for the list\n`);
    return 1;
  }
  if (parsed.options.has('help')) {
    io.stdout.write(`usage: workspace-api ${command.usage} [--db PATH] [--json]\n`);
    return 0;
  }
  const options = new Options({ ...parsed, words: parsed.words.slice(command.name.split(' ').length) }, optionsOf(command.usage));
  const json = options.flag('json');
  let store: Store | undefined;
  let databasePath = '';
  try {
    // Before anything runs: a mistyped option must never fall back to a default and write.
    options.assertNoUnknown();
    const dbOption = options.optional('db');
    const config = loadConfig();
    databasePath = dbOption ?? config.databaseAddress;
    const result = await command.run({
      options,
      databasePath,
      store: async (open = {}) => {
        // An address that is not one, or a PostgreSQL that does not answer, is the user's setup,
        // not a defect: one line naming it, never a stack.
        store ??= await openStore(databasePath, { pool: config.databasePool, ...open }).catch((err: unknown) => {
          throw err instanceof PostgresUnreachableError || err instanceof StoreAddressError ? new CliError((err).message) : err;
        });
        return store;
      },
      json,
      limits: config.workspaceLimits,
      publicBaseUrl: config.http.publicBaseUrl,
      auditLogRetentionDays: config.auditLogRetentionDays,
      ...io,
    });
    if (command.name !== 'serve') {
      io.stdout.write(json || !command.text ? `${jsonLine(result)}\n` : `${(command.text as (r: object) => string)(result)}\n`);
    }
    return command.exitCode ? (command.exitCode as (r: object) => number)(result) : 0;
  } catch (err) {
    const message = err instanceof CliError ? err.message : `unexpected failure: ${(err as Error).message}`;
    io.stderr.write(`error: ${escapeControls(message.split('\n')[0]!)}\n`);
    return 1;
  } finally {
    await store?.close();
  }
}

