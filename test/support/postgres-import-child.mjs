// Run as a separate process by test/process/store/postgres-import-crash.test.ts, on the
// compiled dist/ (plain node, no tsx compiling the sources first in each of its four runs): imports
// the file given after the database URL and the workspace (or standard input, for `-`) into
// PostgreSQL, as a command-line import reads a file (streamed, checked line by line), on the clock
// given last (so every run stamps its answers alike), and prints its summary as one JSON line.
//
//   node test/support/postgres-import-child.mjs <database URL> <workspace id> <file or -> <clock>
import { createReadStream } from 'node:fs';
import { checkedLines } from '../../dist/import/checked-lines.js';
import { readUtf8Lines } from '../../dist/import/utf8-lines.js';
import { createPostgresImportStore } from '../../dist/store/postgres/import/import-store.js';
import { createPostgresPool } from '../../dist/store/postgres/pool.js';

const [url, workspaceId, file, clock] = process.argv.slice(2);
const pool = createPostgresPool(url);
const lines = checkedLines(readUtf8Lines(file === '-' ? process.stdin : createReadStream(file), 16 * 1024 * 1024));
const summary = await createPostgresImportStore(pool).run(workspaceId, lines, { events: true, lock: {}, now: () => new Date(clock) });
await pool.end();
console.log(JSON.stringify(summary));
