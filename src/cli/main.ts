import { loadConfig } from '../config.js';
import { openDatabase } from '../store/database.js';
import { createStore, type Store } from '../store/index.js';
import { CliError, Options, parseArgs } from './args.js';
import { commands } from './commands/index.js';

/** The options a command accepts are the ones its usage line shows. */
function optionsOf(usageLine: string): string[] {
  return [...usageLine.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!);
}

function usage(): string {
  return ['usage: workspace-api <command> [--db PATH] [--json]', '', ...commands.map((c) => `  ${c.usage}`)].join('\n');
}

/** Runs one command; returns the exit code. Errors are one line on stderr and exit code 1. */
export async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseArgs(argv);
  const command = commands.find((c) => {
    const words = c.name.split(' ');
    return words.every((w, i) => parsed.words[i] === w);
  });
  if (!command) {
    if (parsed.words.length === 0 || parsed.options.has('help')) {
      process.stdout.write(`${usage()}\n`);
      return parsed.words.length === 0 && !parsed.options.has('help') ? 1 : 0;
    }
    process.stderr.write(`error: unknown command "${parsed.words.join(' ')}"; run with --help for the list\n`);
    return 1;
  }
  if (parsed.options.has('help')) {
    process.stdout.write(`usage: workspace-api ${command.usage} [--db PATH] [--json]\n`);
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
    databasePath = dbOption ?? loadConfig().databasePath;
    const result = await command.run({
      options,
      databasePath,
      store: () => {
        store ??= createStore(openDatabase(databasePath));
        return store;
      },
      json,
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
    });
    if (command.name !== 'serve') {
      process.stdout.write(json || !command.text ? `${JSON.stringify(result)}\n` : `${(command.text as (r: object) => string)(result)}\n`);
    }
    return 0;
  } catch (err) {
    const message = err instanceof CliError ? err.message : `unexpected failure: ${(err as Error).message}`;
    process.stderr.write(`error: ${message.split('\n')[0]}\n`);
    return 1;
  } finally {
    store?.db.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
