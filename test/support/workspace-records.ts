import { randomUUID } from 'node:crypto';

/** Import lines of the workspace profile and plan records, for tests: fields override the defaults. */
type Fields = Record<string, unknown>;

function line(fields: Fields): { id: string; line: string } {
  return { id: fields.id as string, line: JSON.stringify(fields) };
}

export function profileLine(fields: Fields = {}) {
  return line({
    type: 'workspace_profile',
    id: randomUUID(),
    brand_name: 'Acme',
    domains: ['acme.example'],
    tracked_platforms: ['chatgpt', 'perplexity'],
    collection_cadence: 'daily',
    ...fields,
  });
}

export function planLine(fields: Fields = {}) {
  return line({
    type: 'workspace_plan',
    id: randomUUID(),
    name: 'Growth',
    tracked_prompts_limit: 100,
    articles_per_month_limit: 30,
    period_start: '2026-11-01',
    period_end: '2026-11-30',
    ...fields,
  });
}
