// What each answer adds to the cited-page rollup (migration 031): one citation per distinct URL it
// cites, for its prompt, platform and UTC day, and the title of the most recently collected answer
// that gave one. Summed here, the same in every database; each database writes the sums
// (`CitedPageSink`).

/** A URL a flush writes, in the order the flush reaches it, with the newest title seen for it, if any. */
export interface CitedUrlTouch {
  url: string;
  title: { title: string; ms: number } | undefined;
}

export interface CitedPageDelta {
  url: string;
  day: number;
  promptId: string;
  platform: string;
  citations: number;
}

/**
 * Writes the rollup. `urls` are distinct, in the order their rows are first written (a URL new to
 * the workspace is numbered in that order); a title replaces the stored one when its answer was
 * collected at the same time or later. Each delta adds to its day's row; a row that falls to zero
 * or below goes.
 */
export interface CitedPageSink {
  write(urls: readonly CitedUrlTouch[], deltas: readonly CitedPageDelta[]): void;
}

// Summed in memory and written in batches, like the snapshot rollups.
const FLUSH_AT = 20_000;

/** The cited-page sums of one import's answers, handed to `sink` when they grow large and at `flush`. */
export class CitedPageRollup {
  private readonly deltas = new Map<string, CitedPageDelta>();
  private readonly titles = new Map<string, { title: string; ms: number }>();

  constructor(private readonly sink: CitedPageSink) {}

  /** Adds (sign 1) or takes back (sign −1) one answer's citations. */
  contribute(
    sign: 1 | -1,
    answer: { promptId: string; platform: string; day: number; collectedMs: number; citations: ReadonlyArray<{ url: string; title: string }> },
  ): void {
    const seen = new Set<string>();
    for (const { url, title } of answer.citations) {
      if (sign === 1 && title !== '') {
        const known = this.titles.get(url);
        if (!known || answer.collectedMs >= known.ms) this.titles.set(url, { title, ms: answer.collectedMs });
      }
      if (seen.has(url)) continue;
      seen.add(url);
      const key = `${answer.day} ${answer.promptId} ${answer.platform} ${url}`;
      let d = this.deltas.get(key);
      if (!d) this.deltas.set(key, (d = { url, day: answer.day, promptId: answer.promptId, platform: answer.platform, citations: 0 }));
      d.citations += sign;
    }
    if (this.deltas.size + this.titles.size >= FLUSH_AT) this.flush();
  }

  flush(): void {
    const urls: CitedUrlTouch[] = [];
    const reached = new Set<string>();
    const reach = (url: string): void => {
      if (reached.has(url)) return;
      reached.add(url);
      urls.push({ url, title: this.titles.get(url) });
    };
    const deltas: CitedPageDelta[] = [];
    for (const d of this.deltas.values()) {
      if (d.citations === 0) continue;
      reach(d.url);
      deltas.push(d);
    }
    // Titles of answers whose citations cancelled out still refresh their page.
    for (const url of this.titles.keys()) reach(url);
    if (urls.length > 0) this.sink.write(urls, deltas);
    this.deltas.clear();
    this.titles.clear();
  }
}
