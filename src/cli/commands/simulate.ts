import type { Command } from '../command.js';
import { CliError } from '../args.js';
import { existingWorkspace } from '../validate.js';
import { parseDecimalInteger } from '../../text/decimal-integer.js';
import { simulate as runSimulation, type SimulationSummary } from '../../simulator/simulate.js';

function positiveInt(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = parseDecimalInteger(raw);
  if (n === undefined || n < 1) throw new CliError(`--${name} "${raw}" must be a positive integer`);
  return n;
}

export const simulate: Command = {
  name: 'simulate',
  usage: 'simulate --workspace ID [--interval MS] [--count N]   (moves records through status changes; webhook events follow)',
  async run({ options, store, json, stdout }) {
    const intervalMs = positiveInt(options.optional('interval'), 'interval') ?? 2_000;
    const count = positiveInt(options.optional('count'), 'count');
    const db = await store();
    const workspaceId = (await existingWorkspace(db, options.required('workspace'))).id;
    const controller = new AbortController();
    const stop = (): void => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      if (!json) stdout.write(`Simulating status changes in workspace ${workspaceId} every ${intervalMs} ms${count ? `, ${count} changes` : ' (Ctrl-C stops)'}\n`);
      return await runSimulation(db, {
        workspaceId,
        intervalMs,
        count,
        signal: controller.signal,
        onStep: ({ caption, events }) => {
          if (!json) stdout.write(`${new Date().toISOString()}  ${caption}${events > 0 ? `  [${events} event${events === 1 ? '' : 's'}]` : ''}\n`);
        },
      });
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  },
  text: (result: SimulationSummary) => `${result.changes} status changes, ${result.events} webhook events written`,
};
