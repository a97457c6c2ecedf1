import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../../../generated/import-format.js';
import { createSnapshotStatements } from '../../visibility-import.js';
import { DAY_MS, parseTimestamp } from '../../../timestamp.js';
import { competitorNameKey } from './competitor.js';
import { createCitedPageRollup } from '../../visibility-cited-pages.js';
import { createPromptRunningTotals, type SeriesChange } from '../../prompt-running-totals.js';

// Rollup and running-total changes are summed in memory and written every this many distinct
// (prompt, day, platform) and (prompt, day, competitor) keys, and at the end: a file sorted by
// time touches few keys between flushes, so most snapshots cost no rollup write.
const FLUSH_AT = 20_000;

interface DailyDelta {
  promptId: string;
  day: number;
  platform: string;
  total: number;
  mentioned: number;
  cited: number;
}

interface MentionDelta {
  promptId: string;
  day: number;
  competitorId: string;
  mentions: number;
}

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
 * Collected answers. Keeps the prompt's running totals, the workspace's daily rollups and
 * `prompts.last_collected_ms` in step with the snapshots: an insert adds its contribution, an
 * update subtracts the old row's and adds the new one's, an unchanged record touches nothing (its
 * `updated_at` included).
 */
export const snapshot: RecordType<ImportRecords['snapshot']> = {
  ...formatType('snapshot'),
  open(db, session) {
    const { workspaceId } = session;
    const { get, insert, update, latestUpdate, remove, listCompetitors, addWorkspaceDaily, pruneWorkspaceDaily, addWorkspaceMentions, pruneWorkspaceMentions, touchPrompt } = createSnapshotStatements(db);
    const running = createPromptRunningTotals(db);
    const citedPages = createCitedPageRollup(db, workspaceId);

    let names = new Map<string, string>();
    let namesRevision = -1;
    const daily = new Map<string, DailyDelta>();
    const mentions = new Map<string, MentionDelta>();
    const touched = new Set<string>();
    let stamp: string | undefined;

    /**
     * The `updated_at` of every answer this import writes: its clock, but always after the newest
     * one the workspace's answers carry, even within the same millisecond or with a clock set back,
     * so a sync client that saw that one still gets these with `updated_after`. Read under the
     * import's write lock, so no other import can write a later one before this one commits.
     */
    function updateTime(): string {
      if (stamp === undefined) {
        const latest = latestUpdate.get(workspaceId) as string | null;
        const floor = latest === null ? Number.NEGATIVE_INFINITY : Date.parse(latest) + 1;
        stamp = new Date(Math.max(session.now().getTime(), floor)).toISOString();
      }
      return stamp;
    }

    /** name key → competitor id, reloaded whenever this import has written a competitor since. */
    function competitorsByName(): Map<string, string> {
      const revision = session.revision('competitor');
      if (revision !== namesRevision) {
        names = new Map(listCompetitors.all(workspaceId) as [string, string][]);
        namesRevision = revision;
      }
      return names;
    }

    function contribute(sign: 1 | -1, promptId: string, day: number, platform: string, mentioned: number, cited: number, competitorIds: readonly string[]): void {
      const key = `${promptId} ${day} ${platform}`;
      let d = daily.get(key);
      if (!d) daily.set(key, (d = { promptId, day, platform, total: 0, mentioned: 0, cited: 0 }));
      d.total += sign;
      d.mentioned += sign * mentioned;
      d.cited += sign * cited;
      for (const competitorId of competitorIds) {
        const mentionKey = `${promptId} ${day} ${competitorId}`;
        let m = mentions.get(mentionKey);
        if (!m) mentions.set(mentionKey, (m = { promptId, day, competitorId, mentions: 0 }));
        m.mentions += sign;
      }
      touched.add(promptId);
    }

    function flush(): void {
      const promptDays = new Map<string, SeriesChange & { values: number[] }>();
      const platformChanges: SeriesChange[] = [];
      const workspaceDaily = new Map<string, DailyDelta>();
      for (const d of daily.values()) {
        if (d.total === 0 && d.mentioned === 0 && d.cited === 0) continue;
        platformChanges.push({ keys: [d.promptId, d.platform], day: d.day, values: [d.total, d.mentioned, d.cited] });
        const dayKey = `${d.promptId} ${d.day}`;
        const p = promptDays.get(dayKey);
        if (p) {
          p.values[0]! += d.total;
          p.values[1]! += d.mentioned;
          p.values[2]! += d.cited;
        } else {
          promptDays.set(dayKey, { keys: [d.promptId], day: d.day, values: [d.total, d.mentioned, d.cited] });
        }
        const key = `${d.day} ${d.platform}`;
        const w = workspaceDaily.get(key);
        if (w) {
          w.total += d.total;
          w.mentioned += d.mentioned;
          w.cited += d.cited;
        } else {
          workspaceDaily.set(key, { ...d });
        }
      }
      running.days.apply(promptDays.values());
      running.platforms.apply(platformChanges);
      for (const w of workspaceDaily.values()) {
        if (w.total === 0 && w.mentioned === 0 && w.cited === 0) continue;
        addWorkspaceDaily.run(workspaceId, w.day, w.platform, w.total, w.mentioned, w.cited);
        if (w.total < 0) pruneWorkspaceDaily.run(workspaceId, w.day, w.platform);
      }
      const competitorChanges: SeriesChange[] = [];
      const workspaceMentions = new Map<string, MentionDelta>();
      for (const m of mentions.values()) {
        if (m.mentions === 0) continue;
        competitorChanges.push({ keys: [m.promptId, m.competitorId], day: m.day, values: [m.mentions] });
        const key = `${m.day} ${m.competitorId}`;
        const w = workspaceMentions.get(key);
        if (w) w.mentions += m.mentions;
        else workspaceMentions.set(key, { ...m });
      }
      running.competitors.apply(competitorChanges);
      for (const w of workspaceMentions.values()) {
        if (w.mentions === 0) continue;
        addWorkspaceMentions.run(workspaceId, w.day, w.competitorId, w.mentions);
        if (w.mentions < 0) pruneWorkspaceMentions.run(workspaceId, w.day, w.competitorId);
      }
      for (const promptId of touched) touchPrompt.run(promptId, promptId);
      daily.clear();
      mentions.clear();
      touched.clear();
      citedPages.flush();
    }

    type StoredSnapshot = [string, string, number, number, number, string, string, string];

    /** Takes a stored snapshot's contribution out of every rollup (before an update or a deletion). */
    function withdraw(stored: StoredSnapshot): void {
      const [oldPrompt, oldPlatform, oldMs, oldMentioned, oldCited, oldCompetitors, oldCitations] = stored;
      const oldDay = Math.floor(oldMs / DAY_MS);
      contribute(-1, oldPrompt, oldDay, oldPlatform, oldMentioned, oldCited, JSON.parse(oldCompetitors) as string[]);
      citedPages.contribute(-1, { promptId: oldPrompt, platform: oldPlatform, day: oldDay, collectedMs: oldMs, citations: JSON.parse(oldCitations) });
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
        const existing = ctx.isNew ? undefined : (get.get(record.id) as StoredSnapshot | undefined);
        if (!existing) {
          insert.run(record.id, workspaceId, record.prompt_id, record.platform, collectedMs, day, mentioned, cited, competitors, citations, record.answer, updateTime());
          contribute(1, record.prompt_id, day, record.platform, mentioned, cited, competitorIds);
          citedPages.contribute(1, { promptId: record.prompt_id, platform: record.platform, day, collectedMs, citations: record.citations });
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
          update.run(record.prompt_id, record.platform, collectedMs, day, mentioned, cited, competitors, citations, record.answer, updateTime(), record.id);
          withdraw(existing);
          contribute(1, record.prompt_id, day, record.platform, mentioned, cited, competitorIds);
          citedPages.contribute(1, { promptId: record.prompt_id, platform: record.platform, day, collectedMs, citations: record.citations });
        }
        if (daily.size + mentions.size >= FLUSH_AT) flush();
        return existing ? 'updated' : 'inserted';
      },
      remove(id) {
        const stored = get.get(id) as StoredSnapshot | undefined;
        if (!stored) return;
        remove.run(id);
        withdraw(stored);
        if (daily.size + mentions.size >= FLUSH_AT) flush();
      },
      flush() {
        flush();
        running.settle();
      },
    };
  },
};
