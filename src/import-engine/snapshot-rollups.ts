// What each answer adds to the analytics rollups (migrations 010 and 011): the prompt's running
// totals per day, per platform and per competitor, the workspace's daily rollups and the prompt's
// newest collection time. Summed here, the same in every database; each database writes the sums
// (`RollupSink`).

/** One change to one day of one series: `values` in the order of the series table's running columns. */
export interface SeriesChange {
  keys: readonly string[];
  day: number;
  values: readonly number[];
}

interface WorkspaceDailyChange {
  day: number;
  platform: string;
  total: number;
  mentioned: number;
  cited: number;
}

interface WorkspaceMentionChange {
  day: number;
  competitorId: string;
  mentions: number;
}

/** The summed changes of one flush, none of them all zero except where said. */
export interface RollupChanges {
  /** (prompt): total, mentioned, cited of the day over every platform; may be all zero (changes that cancel across platforms). */
  promptDays: SeriesChange[];
  /** (prompt, platform): total, mentioned, cited. */
  platforms: SeriesChange[];
  /** (prompt, competitor): mentions. */
  competitors: SeriesChange[];
  workspaceDaily: WorkspaceDailyChange[];
  workspaceMentions: WorkspaceMentionChange[];
  /** Prompts whose answers changed: their newest collection time is read again. */
  touchedPrompts: string[];
}

/**
 * Writes the rollups. `add` gets each flush's sums; a row whose sums fall to zero goes (the running
 * tables keep a row per day that has answers). `settle` is called once, after the last `add`.
 */
export interface RollupSink {
  add(changes: RollupChanges): void;
  settle(): void;
}

// Sums are written every this many distinct (prompt, day, platform) and (prompt, day, competitor)
// keys, and at the end: a file sorted by time touches few keys between flushes, so most snapshots
// cost no rollup write.
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

/** The rollup sums of one import's answers, handed to `sink` when they grow large and at `flush`. */
export class SnapshotRollups {
  private readonly daily = new Map<string, DailyDelta>();
  private readonly mentions = new Map<string, MentionDelta>();
  private readonly touched = new Set<string>();

  constructor(
    private readonly sink: RollupSink,
    /** Called at every flush, after the sums: the cited-page rollup flushes with them. */
    private readonly alongside: () => void,
  ) {}

  /** Adds (sign 1) or takes back (sign −1) one answer. */
  contribute(sign: 1 | -1, promptId: string, day: number, platform: string, mentioned: number, cited: number, competitorIds: readonly string[]): void {
    const key = `${promptId} ${day} ${platform}`;
    let d = this.daily.get(key);
    if (!d) this.daily.set(key, (d = { promptId, day, platform, total: 0, mentioned: 0, cited: 0 }));
    d.total += sign;
    d.mentioned += sign * mentioned;
    d.cited += sign * cited;
    for (const competitorId of competitorIds) {
      const mentionKey = `${promptId} ${day} ${competitorId}`;
      let m = this.mentions.get(mentionKey);
      if (!m) this.mentions.set(mentionKey, (m = { promptId, day, competitorId, mentions: 0 }));
      m.mentions += sign;
    }
    this.touched.add(promptId);
  }

  /** Flushes when the sums have grown past their bound. */
  flushIfFull(): void {
    if (this.daily.size + this.mentions.size >= FLUSH_AT) this.flush();
  }

  flush(): void {
    const promptDays = new Map<string, SeriesChange & { values: number[] }>();
    const platforms: SeriesChange[] = [];
    const workspaceDaily = new Map<string, WorkspaceDailyChange>();
    for (const d of this.daily.values()) {
      if (d.total === 0 && d.mentioned === 0 && d.cited === 0) continue;
      platforms.push({ keys: [d.promptId, d.platform], day: d.day, values: [d.total, d.mentioned, d.cited] });
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
        workspaceDaily.set(key, { day: d.day, platform: d.platform, total: d.total, mentioned: d.mentioned, cited: d.cited });
      }
    }
    const competitors: SeriesChange[] = [];
    const workspaceMentions = new Map<string, WorkspaceMentionChange>();
    for (const m of this.mentions.values()) {
      if (m.mentions === 0) continue;
      competitors.push({ keys: [m.promptId, m.competitorId], day: m.day, values: [m.mentions] });
      const key = `${m.day} ${m.competitorId}`;
      const w = workspaceMentions.get(key);
      if (w) w.mentions += m.mentions;
      else workspaceMentions.set(key, { day: m.day, competitorId: m.competitorId, mentions: m.mentions });
    }
    this.sink.add({
      promptDays: [...promptDays.values()],
      platforms,
      competitors,
      workspaceDaily: [...workspaceDaily.values()].filter((w) => w.total !== 0 || w.mentioned !== 0 || w.cited !== 0),
      workspaceMentions: [...workspaceMentions.values()].filter((w) => w.mentions !== 0),
      touchedPrompts: [...this.touched],
    });
    this.daily.clear();
    this.mentions.clear();
    this.touched.clear();
    this.alongside();
  }
}
