import type { components } from '../../generated/openapi.js';
import { periodsFor, type RangeValue } from '../analytics/periods.js';
import { summariseRollups } from '../analytics/prompt-analytics.js';
import type { VisibilityOverviewStore } from '../store/interfaces/visibility-overview.js';

export type VisibilityRates = components['schemas']['VisibilityRates'];

/**
 * The workspace-wide rates: the prompt analytics' computation applied to the workspace rollup,
 * which the import keeps as the sum of every prompt's, so the cost is that of one prompt.
 */
export async function readVisibilityRates(
  overview: VisibilityOverviewStore,
  request: { workspaceId: string; range: RangeValue; alpha: number; now: Date },
): Promise<VisibilityRates> {
  const periods = periodsFor(request.range, request.now);
  const daily = await overview.workspaceDaily(request.workspaceId, periods.previousStart, periods.today);
  const summary = summariseRollups(periods, daily, request.alpha);
  return {
    range: periods.range,
    mention_rate: summary.mention_rate,
    citation_rate: summary.citation_rate,
    trend_series: summary.trend_series,
    platforms: summary.platforms,
    total_snapshots: summary.current.total,
  };
}
