/** `--name value`, `--name=value` and bare `--flag` options after the command words. */
export interface ParsedArgs {
  words: string[];
  options: Map<string, string | true>;
}

export class CliError extends Error {}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) {
        options.set(arg.slice(2, eq), arg.slice(eq + 1));
        continue;
      }
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        options.set(arg.slice(2), next);
        i += 1;
      } else {
        options.set(arg.slice(2), true);
      }
    } else {
      words.push(arg);
    }
  }
  return { words, options };
}

/** Reads options, refusing unknown ones so a typo never silently falls back to a default. */
export class Options {
  private readonly used: Set<string>;

  /** `accepted`: the command's options besides the global --db and --json. */
  constructor(private readonly parsed: ParsedArgs, accepted: readonly string[] = []) {
    this.used = new Set(['db', 'json', ...accepted]);
  }

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) throw new CliError(`--${name} is required`);
    return value;
  }

  optional(name: string): string | undefined {
    this.used.add(name);
    const value = this.parsed.options.get(name);
    if (value === true) throw new CliError(`--${name} needs a value`);
    return value;
  }

  flag(name: string): boolean {
    this.used.add(name);
    const value = this.parsed.options.get(name);
    if (value === undefined) return false;
    if (value === true || value === 'true') return true;
    if (value === 'false') return false;
    // The parser cannot know which options take values: in `--json file.ndjson` the word after a
    // flag is a positional argument, given back in order.
    this.parsed.options.set(name, true);
    this.parsed.words.push(value);
    return true;
  }

  positional(index: number): string | undefined {
    return this.parsed.words[index];
  }

  assertNoUnknown(): void {
    for (const name of this.parsed.options.keys()) {
      if (!this.used.has(name)) throw new CliError(`unknown option --${name}`);
    }
  }
}
