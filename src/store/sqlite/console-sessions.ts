import type { Db } from './database.js';
import type { ConsoleSessionPrincipalRow, ConsoleSessionRow, ConsoleSessionStore, SignInLinkRow } from '../interfaces/console-sessions.js';
import { CONSOLE_SESSION_SQL } from '../console-session-statements.js';
import { promised } from './promised.js';

/** Console sign-in links and sessions, synchronously: for statements inside one SQLite transaction. */
function createSyncConsoleSessionStore(db: Db) {
  const statements = {
    insertLink: db.prepare(CONSOLE_SESSION_SQL.insertLink),
    spendLink: db.prepare(CONSOLE_SESSION_SQL.spendLink),
    linkByHash: db.prepare(CONSOLE_SESSION_SQL.linkByHash),
    insertSession: db.prepare(CONSOLE_SESSION_SQL.insertSession),
    principalByHash: db.prepare(CONSOLE_SESSION_SQL.principalByHash),
    touch: db.prepare(CONSOLE_SESSION_SQL.touch),
    end: db.prepare(CONSOLE_SESSION_SQL.end),
  };
  return {
    insertLink(row: SignInLinkRow): void {
      statements.insertLink.run(row);
    },
    spendLink(hash: string, now: string): SignInLinkRow | undefined {
      return statements.spendLink.get(now, hash, now) as SignInLinkRow | undefined;
    },
    linkByHash(hash: string): SignInLinkRow | undefined {
      return statements.linkByHash.get(hash) as SignInLinkRow | undefined;
    },
    insertSession(row: ConsoleSessionRow): void {
      statements.insertSession.run(row);
    },
    principalByHash(hash: string): ConsoleSessionPrincipalRow | undefined {
      return statements.principalByHash.get(hash) as ConsoleSessionPrincipalRow | undefined;
    },
    touch(id: string, now: string): boolean {
      return statements.touch.run(now, id).changes === 1;
    },
    end(id: string, now: string): boolean {
      return statements.end.run(now, id).changes === 1;
    },
  };
}

export function createConsoleSessionStore(db: Db): ConsoleSessionStore {
  return promised(createSyncConsoleSessionStore(db));
}
