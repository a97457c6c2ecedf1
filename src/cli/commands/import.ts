import { createReadStream, openSync } from 'node:fs';
import type { Command } from '../command.js';
import { CliError } from '../args.js';
import { existingWorkspace } from '../validate.js';
import { importNdjson, type ImportSummary } from '../../import/import-ndjson.js';
import { ImportError } from '../../import-engine/import-error.js';
import { DatabaseBusyError } from '../../store/errors.js';

export const importFile: Command = {
  name: 'import',
  usage: 'import --workspace ID [--no-events] [--no-wait] FILE|-   (newline-delimited JSON; - reads stdin; all or nothing; waits its turn behind a running import; --no-events: a backfill, no webhook events)',
  async run({ options, store, stdin, stderr }) {
    // Flags are read before the positional FILE: in `--no-wait data.ndjson` the parser took the file as the flag's value.
    const noWait = options.flag('no-wait');
    const events = !options.flag('no-events');
    const file = options.positional(0);
    if (file === undefined) throw new CliError('FILE is required (- reads standard input)');
    if (options.positional(1) !== undefined) throw new CliError(`unexpected argument "${options.positional(1)}": import reads one FILE`);
    const workspace = await existingWorkspace(await store(), options.required('workspace'));
    let input: NodeJS.ReadableStream = stdin;
    if (file !== '-') {
      let fd: number;
      try {
        // Opened now so a missing or unreadable file is a clear error before the import starts.
        fd = openSync(file, 'r');
      } catch (err) {
        throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      input = createReadStream('', { fd });
    }
    try {
      return await importNdjson(await store(), workspace.id, input, {
        events,
        lock: { wait: !noWait, onWaiting: () => stderr.write('another import is running; waiting for it to finish…\n') },
      });
    } catch (err) {
      if (err instanceof ImportError) throw new CliError(err.message);
      if (err instanceof DatabaseBusyError) throw new CliError('another import is running; not waiting (--no-wait): run it again later, or without --no-wait to wait for its turn');
      throw err;
    }
  },
  text: (r: ImportSummary) =>
    `imported ${r.records} records: ${r.inserted} inserted, ${r.updated} updated, ${r.unchanged} unchanged`
    + (r.deleted > 0 ? `, ${r.deleted} deleted` : '')
    + `; ${r.events} webhook events`
    + (r.events_suppressed > 0 ? ` (${r.events_suppressed} suppressed by --no-events)` : ''),
};
