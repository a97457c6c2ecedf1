import type { Store } from '../store/index.js';
import type { Options } from './args.js';

export interface CommandContext {
  options: Options;
  /** Opens the database on first use (`--db`, else DATABASE_PATH, else ./data/workspace.db). */
  store: () => Store;
  databasePath: string;
  json: boolean;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
}

export interface Command {
  /** The command words, e.g. `key create`. */
  name: string;
  usage: string;
  /** Returns the object printed with --json; `text` renders it for people. Long-running commands resolve when done. */
  run: (ctx: CommandContext) => Promise<object> | object;
  text?: (result: never) => string;
}
