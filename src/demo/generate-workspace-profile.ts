import { DAY_MS, dayOf } from '../analytics/periods.js';
import { calendarMonthOf } from '../workspace/billing-period.js';
import { demoId, type DemoDataOptions } from './demo-random.js';

/**
 * The demo workspace's profile and plan: the brand the visibility demo mentions (Acme Analytics on
 * acme-analytics.example), every platform collected daily, and a Growth plan whose billing period
 * is the calendar month of the demo's last day.
 */
export function* generateWorkspaceProfile(options: DemoDataOptions): Generator<string> {
  const namespace = options.idNamespace ?? 'demo';
  const today = new Date(dayOf((options.today ?? new Date()).getTime()) * DAY_MS);
  const period = calendarMonthOf(today);
  yield JSON.stringify({
    type: 'workspace_profile',
    id: demoId(namespace, 'workspace-profile'),
    brand_name: 'Acme Analytics',
    domains: ['acme-analytics.example'],
    tracked_platforms: ['chatgpt', 'google_ai_overview', 'perplexity', 'gemini', 'grok', 'claude'],
    collection_cadence: 'daily',
  });
  yield JSON.stringify({
    type: 'workspace_plan',
    id: demoId(namespace, 'workspace-plan'),
    name: 'Growth',
    tracked_prompts_limit: Math.max(50, Math.ceil(options.prompts / 50) * 50),
    articles_per_month_limit: 30,
    period_start: period.start,
    period_end: period.end,
  });
}
