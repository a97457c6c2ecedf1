import type { DemoDataLoader } from './bootstrap.js';
import { importLines } from '../import/import-ndjson.js';
import { DEFAULT_DEMO_OPTIONS, generateDemoData } from './generate-demo-data.js';

/**
 * Fills the demo workspace with generated data through the import, the same path real data takes.
 * Ids are namespaced by the workspace, dates end today.
 */
export const loadDemoData: DemoDataLoader = async (store, workspaceId) => {
  // A backfill: the demo workspace starts with its records, not with an outbox of their arrivals.
  await importLines(store, workspaceId, generateDemoData({ ...DEFAULT_DEMO_OPTIONS, idNamespace: workspaceId }), { events: false });
};
