import type { DemoDataLoader } from './bootstrap.js';
import { importLines } from '../import/import-ndjson.js';
import { DEFAULT_DEMO_OPTIONS, generateDemoData } from './generate-demo-data.js';

/**
 * Fills the demo workspace with generated data through the import, the same path real data takes.
 * Ids are namespaced by the workspace, dates end today.
 */
export const loadDemoData: DemoDataLoader = async (store, workspaceId) => {
  await importLines(store, workspaceId, generateDemoData({ ...DEFAULT_DEMO_OPTIONS, idNamespace: workspaceId }));
};
