import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import type { SnapshotRow, StoredSnapshot } from '../record-io.js';
import { DAY_MS, parseTimestamp } from '../../store/timestamp.js';
import { competitorNameKey } from '../tables/visibility.js';
import { CitedPageRollup } from '../cited-page-rollup.js';
import { SnapshotRollups } from '../snapshot-rollups.js';

/** The same citations always serialise to the same text, whatever the key order in the file. */
function citationsJson(citations: ImportRecords['snapshot']['citations']): string {
  if (citations.length === 0) return '[]';
  let out = '[';
  for (let i = 0; i < citations.length; i += 1) {
    const c = citations[i]!;
    out += `${i === 0 ? '' : ','}{"url":${JSON.stringify(c.url)},"title":${JSON.stringify(c.title)}}`;
  }
  return `${out}]`;
}

/**
 * Collected answers. Keeps the prompt's running totals, the workspace's daily rollups, the cited
 * pages and `prompts.last_collected_ms` in step with the snapshots: an insert adds its
 * contribution, an update subtracts the old row's and adds the new one's, an unchanged record
 * touches nothing (its `updated_at` included).
 */
export const snapshot: RecordType<ImportRecords['snapshot']> = {
  ...formatType('snapshot'),
  open(io, session) {
    const { workspaceId } = session;
    const rows = io.snapshots;
    const citedPages = new CitedPageRollup(io.citedPages);
    const rollups = new SnapshotRollups(io.rollups, () => citedPages.flush());

    let names = new Map<string, string>();
    let namesRevision = -1;
    let stamp: string | undefined;

    /**
     * The `updated_at` of every answer this import writes: its clock, but always after the newest
     * one the workspace's answers carry, even within the same millisecond or with a clock set back,
     * so a sync client that saw that one still gets these with `updated_after`. Read under the
     * import's write lock, so no other import can write a later one before this one commits.
     */
    function updateTime(): string {
      if (stamp === undefined) {
        const latest = rows.latestUpdate();
        const floor = latest === null ? Number.NEGATIVE_INFINITY : Date.parse(latest) + 1;
        stamp = new Date(Math.max(session.now().getTime(), floor)).toISOString();
      }
      return stamp;
    }

    /** name key → competitor id, reloaded whenever this import has written a competitor since. */
    function competitorsByName(): Map<string, string> {
      const revision = session.revision('competitor');
      if (revision !== namesRevision) {
        names = io.competitors.nameKeys();
        namesRevision = revision;
      }
      return names;
    }

    /** Takes a stored snapshot's contribution out of every rollup (before an update or a deletion). */
    function withdraw(stored: StoredSnapshot): void {
      const [oldPrompt, oldPlatform, oldMs, oldMentioned, oldCited, oldCompetitors, oldCitations] = stored;
      const oldDay = Math.floor(oldMs / DAY_MS);
      rollups.contribute(-1, oldPrompt, oldDay, oldPlatform, oldMentioned, oldCited, JSON.parse(oldCompetitors) as string[]);
      citedPages.contribute(-1, { promptId: oldPrompt, platform: oldPlatform, day: oldDay, collectedMs: oldMs, citations: JSON.parse(oldCitations) as Array<{ url: string; title: string }> });
    }

    return {
      apply(record, ctx) {
        const collectedMs = parseTimestamp(record.collected_at);
        if (collectedMs === undefined) {
          return ctx.fail('collected_at', `must be an RFC 3339 date-time with a time zone (got ${JSON.stringify(record.collected_at)})`);
        }
        const day = Math.floor(collectedMs / DAY_MS);
        const byName = competitorsByName();
        const competitorIds: string[] = [];
        for (let i = 0; i < record.competitors.length; i += 1) {
          const name = record.competitors[i]!;
          const id = byName.get(competitorNameKey(name));
          if (id === undefined) {
            // The competitor may be defined further down the file.
            if (!ctx.finalPass) return 'deferred';
            return ctx.fail(`competitors[${i}]`, `${JSON.stringify(name)} is not a competitor this workspace tracks`);
          }
          if (!competitorIds.includes(id)) competitorIds.push(id);
        }
        const competitors = competitorIds.length === 0 ? '[]' : `["${competitorIds.join('","')}"]`;
        const citations = citationsJson(record.citations);
        const mentioned = record.mentioned ? 1 : 0;
        const cited = record.cited ? 1 : 0;
        const existing = ctx.isNew ? undefined : rows.stored(record.id);
        const row = (): SnapshotRow => [record.id, workspaceId, record.prompt_id, record.platform, collectedMs, day, mentioned, cited, competitors, citations, record.answer, updateTime()];
        if (!existing) {
          rows.insert(row());
        } else {
          const [oldPrompt, oldPlatform, oldMs, oldMentioned, oldCited, oldCompetitors, oldCitations, oldAnswer] = existing;
          if (
            oldPrompt === record.prompt_id &&
            oldPlatform === record.platform &&
            oldMs === collectedMs &&
            oldMentioned === mentioned &&
            oldCited === cited &&
            oldCompetitors === competitors &&
            oldCitations === citations &&
            oldAnswer === record.answer
          ) {
            return 'unchanged';
          }
          rows.update(row());
          withdraw(existing);
        }
        rollups.contribute(1, record.prompt_id, day, record.platform, mentioned, cited, competitorIds);
        citedPages.contribute(1, { promptId: record.prompt_id, platform: record.platform, day, collectedMs, citations: record.citations });
        rollups.flushIfFull();
        return existing ? 'updated' : 'inserted';
      },
      remove(id) {
        const stored = rows.stored(id);
        if (!stored) return;
        rows.remove(id);
        withdraw(stored);
        rollups.flushIfFull();
      },
      flush() {
        rollups.flush();
        io.rollups.settle();
      },
    };
  },
};
