import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order test files are handed to the workers in (vitest.config.ts): lane by lane, the slow
 * lane first, then `fast-postgres`, then `fast`, and in each lane the longest files first.
 *
 * - Lane by lane, because vitest keeps a worker of a non-isolated lane (`isolate: false`) for the
 *   next file only when the next file in the queue is of the same lane. A worker that gets a file
 *   of another lane is stopped, and a new one imports the service again and compiles the contract's
 *   validator again (about 16 s of CPU): files of the lanes taken in turns paid that for most files
 *   (vitest's `import` time was 346 s of a run; it is about 30 s with the lanes kept together).
 * - The slow lane first, longest first: its files wait on child processes, browsers and retry
 *   schedules, and the longest of them would otherwise finish the run alone.
 * - Longest first inside a lane, from the durations vitest's results cache recorded, or, where it
 *   has none (a clean clone, as in CI), the ones recorded in file-durations.json
 *   (`node scripts/record-test-durations.mjs` writes it from the cache); files timed by neither go
 *   first, larger before smaller. So the run ends on short files: ordered by size alone, CI's run
 *   ended on two files of 24 s each.
 *
 * `--sequence.shuffle` shuffles the files inside each lane with the run's seed: the lanes run in
 * processes of their own, so an order dependence can only be between files of one lane.
 */
const LANE_ORDER = ['slow', 'fast-postgres', 'fast'];

/** Seconds per `lane:file`, from a whole run. */
const recorded = JSON.parse(readFileSync(new URL('file-durations.json', import.meta.url), 'utf8')) as Record<string, number>;

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { root, sequence } = this.ctx.config;
    const lanes = LANE_ORDER.map((name) => files.filter((spec) => spec.project.name === name));
    const others = files.filter((spec) => !LANE_ORDER.includes(spec.project.name));
    if (sequence.shuffle) return [...lanes, others].flatMap((lane) => shuffled(lane, sequence.seed));
    const key = (spec: TestSpecification) => `${spec.project.name}:${relative(root, spec.moduleId)}`;
    const timed = (spec: TestSpecification) => this.ctx.cache.getFileTestResults(key(spec))?.duration ?? milliseconds(recorded[key(spec)]);
    const size = (spec: TestSpecification) => this.ctx.cache.getFileStats(key(spec))?.size ?? 0;
    const longestFirst = (a: TestSpecification, b: TestSpecification) => {
      const [ta, tb] = [timed(a), timed(b)];
      if (ta === undefined || tb === undefined) {
        if (ta !== undefined || tb !== undefined) return ta === undefined ? -1 : 1;
        return size(b) - size(a);
      }
      return tb - ta;
    };
    return [...lanes, others].flatMap((lane) => [...lane].sort(longestFirst));
  }
}

/** Recorded seconds as the milliseconds the results cache holds. */
function milliseconds(value: number | undefined): number | undefined {
  return value === undefined ? undefined : value * 1000;
}

/** Fisher-Yates with a small seeded generator (mulberry32), so a seed replays the same order. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
