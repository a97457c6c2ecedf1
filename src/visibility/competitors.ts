import type { components } from '../../generated/openapi.js';
import { periodsFor, type RangeValue } from '../analytics/periods.js';
import { compareCodePoints, summariseRollups } from '../analytics/prompt-analytics.js';
import { rate, rateDelta } from '../analytics/rates.js';
import { parameterDefault } from '@workspace-read-api/contract/documents.js';
import type { Store } from '../store/index.js';

export type VisibilityCompetitors = components['schemas']['VisibilityCompetitors'];
type CompetitorShare = components['schemas']['CompetitorShare'];

interface Row {
  id: string | null;
  name: string;
  domain: string | null;
  is_brand: boolean;
  current: number;
  previous: number;
}

/**
 * Share of voice: each tracked competitor's mentions and the brand's (the snapshots that mention
 * it), each divided by the mentions of all of them together, in both periods.
 */
export async function readVisibilityCompetitors(
  store: Store,
  request: { workspaceId: string; range: RangeValue; now: Date },
): Promise<VisibilityCompetitors> {
  const { workspaceId } = request;
  const periods = periodsFor(request.range, request.now);
  const [daily, profile, mentions] = await Promise.all([
    store.visibilityOverview.workspaceDaily(workspaceId, periods.previousStart, periods.today),
    store.workspaceProfile.getProfile(workspaceId),
    store.visibilityOverview.competitorMentions(workspaceId, periods),
  ]);
  // Only the counts and rates are answered here, never a significance: any level gives the same ones.
  const { current, previous } = summariseRollups(periods, daily, Number(parameterDefault('Alpha')));
  const brand: Row = {
    id: null,
    name: profile?.brand_name ?? (await store.accounts.getWorkspace(workspaceId))?.name ?? '',
    domain: profile?.domains[0] ?? null,
    is_brand: true,
    current: current.mentioned,
    previous: previous.mentioned,
  };
  const rows: Row[] = [
    brand,
    ...mentions.map((c) => ({ ...c, is_brand: false })),
  ];
  let voiceNow = 0;
  let voiceBefore = 0;
  for (const r of rows) {
    voiceNow += r.current;
    voiceBefore += r.previous;
  }
  const competitors: CompetitorShare[] = rows
    .sort((a, b) => b.current - a.current || compareCodePoints(a.name, b.name) || Number(b.is_brand) - Number(a.is_brand))
    .map((r) => ({
      id: r.id,
      name: r.name,
      domain: r.domain,
      is_brand: r.is_brand,
      mentions: r.current,
      mention_rate: rate(r.current, current.total),
      mention_rate_delta: rateDelta(r.current, current.total, r.previous, previous.total),
      share_of_voice: rate(r.current, voiceNow),
      share_of_voice_delta: rateDelta(r.current, voiceNow, r.previous, voiceBefore),
    }));
  return { range: periods.range, total_snapshots: current.total, competitors };
}
