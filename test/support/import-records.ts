import { randomUUID } from 'node:crypto';
import type { Platform } from '../../src/analytics/platforms.js';
import type { Store } from '../../src/store/index.js';
import { rowsOf } from './database-rows.js';

/** Import lines for tests: each builder takes the fields to override and returns `{id, line}`. */
type Fields = Record<string, unknown>;

function line(fields: Fields): { id: string; line: string; record: Fields } {
  return { id: fields.id as string, line: JSON.stringify(fields), record: fields };
}

export function categoryLine(fields: Fields = {}) {
  return line({ type: 'category', id: randomUUID(), name: 'Pricing', color: '#4F46E5', ...fields });
}

export function competitorLine(fields: Fields = {}) {
  const id = (fields.id as string | undefined) ?? randomUUID();
  return line({ type: 'competitor', id, name: `Rival ${id.slice(0, 8)}`, domain: 'rival.example', ...fields });
}

export function promptLine(fields: Fields = {}) {
  return line({
    type: 'prompt',
    id: randomUUID(),
    text: 'best analytics tool for startups',
    category_id: null,
    status: 'ACTIVE',
    created_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  });
}

export function snapshotLine(fields: Fields & { prompt_id: string }) {
  return line({
    type: 'snapshot',
    id: randomUUID(),
    platform: 'chatgpt',
    collected_at: '2026-03-01T12:00:00.000Z',
    mentioned: true,
    cited: false,
    competitors: [],
    citations: [],
    answer: 'An answer.',
    ...fields,
  });
}

/**
 * A snapshot of `promptId` on `platform` at `at`, `flags` saying whether it names the brand (`m`)
 * and cites one of its pages (`c`), naming `competitors`.
 */
export function snap(promptId: string, at: string, platform: Platform, flags: 'mc' | 'm' | 'c' | '', competitors: string[] = []) {
  return snapshotLine({ prompt_id: promptId, collected_at: at, platform, mentioned: flags.includes('m'), cited: flags.includes('c'), competitors });
}

/** The analytics rollups (the prompt's running totals, the workspace's daily rollups), sorted, for comparing against a from-scratch import. */
export async function rollups(store: Store, workspaceId: string): Promise<Record<string, unknown[]>> {
  const prompts = 'SELECT id FROM prompts WHERE workspace_id = ?';
  return {
    prompt_day_totals: await rowsOf(store, `SELECT * FROM prompt_day_totals WHERE prompt_id IN (${prompts}) ORDER BY prompt_id, day`, [workspaceId]),
    prompt_platform_running: await rowsOf(store, `SELECT * FROM prompt_platform_running WHERE prompt_id IN (${prompts}) ORDER BY prompt_id, platform, day`, [workspaceId]),
    prompt_competitor_running: await rowsOf(store, `SELECT * FROM prompt_competitor_running WHERE prompt_id IN (${prompts}) ORDER BY prompt_id, competitor_id, day`, [workspaceId]),
    workspace_daily: await rowsOf(store, 'SELECT * FROM workspace_daily WHERE workspace_id = ? ORDER BY day, platform', [workspaceId]),
    workspace_competitor_daily: await rowsOf(store, 'SELECT * FROM workspace_competitor_daily WHERE workspace_id = ? ORDER BY day, competitor_id', [workspaceId]),
  };
}
