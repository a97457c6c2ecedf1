// Run as a separate process by test/runtime/statement-finalization.process.test.ts, on the compiled
// dist/: prepares statements on the SQLite file given (opened as the service opens it), reads each
// once and drops it, then leaves them to the garbage collector at a point where no JavaScript
// runs. A binding whose statement finalizer needs the running script's environment aborts the
// process there (SIGABRT, `Assertion failed: (env) != nullptr`) instead of exiting 0.
//
//   node test/support/statement-finalization-child.mjs <idle|exit> <db file>
//
// - idle: on a new file (the test hands it one), the migrations, then bursts of reads, each
//   followed by a turn of the event loop, then a short idle on a timer: V8 collects statements in
//   its own tasks between the turns. On a file already migrated, the same reads met no collection
//   in a task (0 aborts in 8 runs with the binding above, 8 in 8 on a new file).
// - exit: the reads, then the database closed and the script returns: the statements still
//   uncollected are finalized by the tasks the process runs while it shuts down.
import { openDatabase } from '../../dist/store/sqlite/database.js';

const BURSTS = 10;
const READS_A_BURST = 250;
const IDLE_MS = 100;
// Fewer than this left at exit and V8 has no collection pending when the process shuts down.
const READS_BEFORE_EXIT = 40_000;

/** A statement of its own text each time, as the store's reads have, read once and dropped. */
const readOnce = (db, i) => db.prepare(`SELECT ${i} AS n`).get();

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function idle(file) {
  const db = openDatabase(file);
  for (let burst = 0; burst < BURSTS; burst += 1) {
    for (let i = 0; i < READS_A_BURST; i += 1) readOnce(db, burst * READS_A_BURST + i);
    await nextTurn();
  }
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  db.close();
}

function exitWithStatementsLeft(file) {
  const db = openDatabase(file);
  for (let i = 0; i < READS_BEFORE_EXIT; i += 1) readOnce(db, i);
  db.close();
}

const [mode, file] = process.argv.slice(2);
if (mode === 'idle') await idle(file);
else if (mode === 'exit') exitWithStatementsLeft(file);
else throw new Error(`unknown mode ${String(mode)}: idle or exit`);
