import type { Platform } from '../../src/analytics/platforms.js';
import { importLines, type ImportOptions } from '../../src/import/import-ndjson.js';
import type { Store } from '../../src/store/index.js';
import type { TestServer } from './test-server.js';
import type { TestWorkspace } from './accounts.js';
import { send, type ObservedResponse } from './http.js';

/**
 * Imports builder lines (`categoryLine(...)`, `snapshotLine(...)`, ...) into the workspace; the only
 * way tests write visibility data. `{ events: false }` imports them as a backfill, announcing nothing.
 */
export async function importRecords(
  store: Store,
  workspace: TestWorkspace,
  records: ReadonlyArray<{ line: string }>,
  options: Pick<ImportOptions, 'events' | 'now'> = {},
): Promise<void> {
  await importLines(store, workspace.workspaceId, records.map((r) => r.line), options);
}

/** GET with the workspace's key. */
export function getWith(server: TestServer, workspace: TestWorkspace, path: string, query: Record<string, string | number> = {}): Promise<ObservedResponse> {
  return send(server.url, { path, query }, workspace.key);
}

/** One platform's row of an answer's `platforms`: its snapshots, and how many named and cited the brand, with their rates. */
export function platformRow(name: Platform, total: number, mentioned: number, mentionRate: number | null, cited: number, citedRate: number | null) {
  return { platform: name, total, mentioned: { count: mentioned, rate: mentionRate }, cited: { count: cited, rate: citedRate } };
}

/** The six platforms in response order, each with no snapshot: what a period without data shows. */
export const EMPTY_PLATFORMS = ['chatgpt', 'google_ai_overview', 'perplexity', 'gemini', 'grok', 'claude'].map((platform) => ({
  platform,
  total: 0,
  mentioned: { count: 0, rate: null },
  cited: { count: 0, rate: null },
}));
