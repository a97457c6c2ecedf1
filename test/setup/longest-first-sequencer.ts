import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order test files are handed to the workers in (vitest.config.ts). Both lanes share the
 * workers, but vitest's own order queues every file of one project before the next project's, so
 * the slow lane's long files would start last and finish the run alone. This order hands out the
 * longest files first, whatever their lane, as vitest's results cache timed them in earlier runs;
 * files it has not timed yet go first, the slow lane's before the fast lane's, larger before
 * smaller. `--sequence.shuffle` still shuffles the files, with the run's seed.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { root, sequence } = this.ctx.config;
    if (sequence.shuffle) return shuffled(files, sequence.seed);
    const key = (spec: TestSpecification) => `${spec.project.name}:${relative(root, spec.moduleId)}`;
    const timed = (spec: TestSpecification) => this.ctx.cache.getFileTestResults(key(spec))?.duration;
    const untimedRank = (spec: TestSpecification) => [spec.project.name === 'slow' ? 0 : 1, -(this.ctx.cache.getFileStats(key(spec))?.size ?? 0)];
    return [...files].sort((a, b) => {
      const [ta, tb] = [timed(a), timed(b)];
      if (ta === undefined || tb === undefined) {
        if (ta !== undefined || tb !== undefined) return ta === undefined ? -1 : 1;
        const [ra, rb] = [untimedRank(a), untimedRank(b)];
        return ra[0]! - rb[0]! || ra[1]! - rb[1]!;
      }
      return tb - ta;
    });
  }
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
