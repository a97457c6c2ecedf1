import type { ConsoleSessionPrincipalRow, ConsoleSessionRow, ConsoleSessionStore, SignInLinkRow } from '../interfaces/console-sessions.js';
import { CONSOLE_SESSION_SQL } from '../console-session-statements.js';
import { row, run, type Queryable } from './query.js';

/** Console sign-in links and sessions on PostgreSQL (`../interfaces/console-sessions.ts`). */
export function createPostgresConsoleSessionStore(db: Queryable): ConsoleSessionStore {
  return {
    async insertLink(link: SignInLinkRow): Promise<void> {
      await run(db, CONSOLE_SESSION_SQL.insertLink, link);
    },
    spendLink: (hash: string, now: string) => row<SignInLinkRow>(db, CONSOLE_SESSION_SQL.spendLink, [now, hash, now]),
    linkByHash: (hash: string) => row<SignInLinkRow>(db, CONSOLE_SESSION_SQL.linkByHash, [hash]),
    async insertSession(session: ConsoleSessionRow): Promise<void> {
      await run(db, CONSOLE_SESSION_SQL.insertSession, session);
    },
    principalByHash: (hash: string) => row<ConsoleSessionPrincipalRow>(db, CONSOLE_SESSION_SQL.principalByHash, [hash]),
    async touch(id: string, now: string): Promise<boolean> {
      return (await run(db, CONSOLE_SESSION_SQL.touch, [now, id])) === 1;
    },
    async end(id: string, now: string): Promise<boolean> {
      return (await run(db, CONSOLE_SESSION_SQL.end, [now, id])) === 1;
    },
  };
}
