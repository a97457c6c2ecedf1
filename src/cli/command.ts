import type { WorkspaceLimits } from '../config.js';
import type { Store } from '../store/index.js';
import type { Options } from './args.js';

/** The streams a command line reads and writes: the process's own, or a test's. */
export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
}

interface CommandContext extends CommandIo {
  options: Options;
  /**
   * Opens the database on first use (`--db`: a SQLite file or a postgres:// URL, else DATABASE_URL,
   * else DATABASE_PATH, else ./data/workspace.db);
   * `serving`: for a server, whose writes wait only briefly for a lock (see `openSqliteStore`).
   */
  store: (open?: { serving?: boolean }) => Promise<Store>;
  databasePath: string;
  json: boolean;
  /** MAX_ACTIVE_API_KEYS and MAX_WEBHOOKS, as the service reads them: the command line holds a workspace to the same limits. */
  limits: WorkspaceLimits;
  /** PUBLIC_BASE_URL, as the service reads it: where the console's sign-in links point. */
  publicBaseUrl: string | undefined;
  /** AUDIT_LOG_RETENTION_DAYS, as the service reads it. */
  auditLogRetentionDays: number;
}

export interface Command {
  /** The command words, e.g. `key create`. */
  name: string;
  usage: string;
  /** Returns the object printed with --json; `text` renders it for people. Long-running commands resolve when done. */
  run: (ctx: CommandContext) => Promise<object> | object;
  text?: (result: never) => string;
  /** The exit code for a result the command returned (default 0): checks that found problems answer 1. */
  exitCode?: (result: never) => number;
}
