import type { Logger } from 'pino';
import type { DependencyCheck } from './readiness.js';

/** How often a dependency that stopped answering is asked again, until it answers. */
const RECHECK_MS = 1_000;

interface Outage {
  since: number;
  refused: number;
  timer: NodeJS.Timeout;
}

/**
 * The log of a dependency's outages (the database here; Redis's client reports its own): one
 * warning when requests first find it away, one info line when it answers again, asked every
 * second meanwhile, and nothing per refused request, whose answer (503) the request log already
 * shows. An outage used to log a warning with a stack for every request it refused.
 */
export class DependencyOutages {
  private readonly outages = new Map<string, Outage>();

  constructor(private readonly logger: Logger, private readonly checks: readonly DependencyCheck[]) {}

  /** A request or a readiness probe found the dependency `name` away. Names this log does not watch are left to their own. */
  noticed(name: string, err: unknown): void {
    const check = this.checks.find((c) => c.name === name);
    if (!check) return;
    const current = this.outages.get(name);
    if (current) {
      current.refused += 1;
      return;
    }
    const cause = err instanceof Error ? err.message : String(err);
    this.logger.warn({ dependency: name, cause }, `${name} does not answer: requests that need it answer 503 until it is back`);
    const outage: Outage = { since: Date.now(), refused: 1, timer: setInterval(() => this.recheck(check, outage), RECHECK_MS) };
    outage.timer.unref();
    this.outages.set(name, outage);
  }

  private recheck(check: DependencyCheck, outage: Outage): void {
    check.ping().then(() => {
      if (this.outages.get(check.name) !== outage) return;
      clearInterval(outage.timer);
      this.outages.delete(check.name);
      this.logger.info({ dependency: check.name, down_ms: Date.now() - outage.since, refused: outage.refused },
        `${check.name} answers again after ${Date.now() - outage.since} ms; ${outage.refused} requests answered 503 meanwhile`);
    }, () => undefined);
  }
}
