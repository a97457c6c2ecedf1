// Run as a separate process by test/process/events/feed-catch-up.test.ts: imports each file
// given after the database and the workspace, one import (one transaction) after the other with a
// short pause between, the way imports reach a running service, and prints {events} as one JSON line.
import { createReadStream } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { importNdjson } from '../../src/import/import-ndjson.js';
import { openSqliteStore } from '../../src/store/index.js';

const [databasePath, workspaceId, ...files] = process.argv.slice(2);
const store = openSqliteStore(databasePath!);
let events = 0;
for (const file of files) {
  events += (await importNdjson(store, workspaceId!, createReadStream(file))).events;
  await sleep(50);
}
await store.close();
console.log(JSON.stringify({ events }));
