import type { EventType } from '../../../../generated/events.js';
import type { ImportLine, ImportRunOptions, ImportStore, ImportSummary } from '../../interfaces/imports.js';
import { ImportRun } from '../../../import-engine/import-run.js';
import { createSyncContentMapStore } from '../content-map.js';
import { createSyncContentStore } from '../content.js';
import { createSyncDataVersionStore } from '../data-versions.js';
import type { Db } from '../database.js';
import { createSyncIqStore } from '../iq.js';
import { storeError } from '../promised.js';
import type { PayloadStores } from './event-payloads.js';
import { createSqliteImportIo } from './import-io.js';
import { inImportTransaction } from './import-ledger.js';

// Page cache while importing (negative = KiB): big inserts into random-key indexes stay in memory.
export const IMPORT_CACHE_SIZE = -65_536;
const REPLAY_PAGE = 500;

/** The imports of one connection, each a whole file in one write transaction: everything or nothing. */
export function createImportStore(db: Db): ImportStore {
  const payloads: PayloadStores = { content: createSyncContentStore(db), contentMap: createSyncContentMapStore(db), iq: createSyncIqStore(db) };
  const dataVersions = createSyncDataVersionStore(db);
  return {
    async run(workspaceId: string, lines: AsyncIterable<readonly ImportLine[]>, options: ImportRunOptions): Promise<ImportSummary> {
      try {
        return await inImportTransaction(db, IMPORT_CACHE_SIZE, async () => {
          const io = createSqliteImportIo(db, workspaceId, payloads);
          const run = new ImportRun(io, workspaceId, options.events, options.now);
          for await (const batch of lines) for (const line of batch) run.feed(line);
          const summary = await run.finish({
            replay() {
              // The queue lives in a temporary table, read a page at a time in file order.
              const deferred = io.deferred()!;
              let after = 0;
              for (;;) {
                const rows = deferred.page.all(after, REPLAY_PAGE) as [number, number, string, string, EventType | null][];
                if (rows.length === 0) break;
                for (const [seq, line, id, text, event] of rows) {
                  after = seq;
                  run.replay({ line, id, text, event });
                }
              }
              deferred.drop();
            },
          });
          // Downloads take their ETag from this version: a record with any outcome but `unchanged`
          // moves it, in this transaction, so a tag can never outlive the data it was made from.
          if (summary.records > summary.unchanged) dataVersions.raise(workspaceId);
          return summary;
        }, options.lock);
      } catch (err) {
        throw storeError(err);
      }
    },
  };
}
