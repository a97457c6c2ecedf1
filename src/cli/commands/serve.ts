import type { Command } from '../command.js';
import { CliError } from '../args.js';
import { loadConfig } from '../../config.js';
import { parseDecimalInteger } from '../../text/decimal-integer.js';
import { addressWithoutPassword } from '../../store/index.js';

export const serve: Command = {
  name: 'serve',
  usage: 'serve [--port N] [--host H] [--demo]',
  async run({ options, store, databasePath, json, stdout }) {
    const config = loadConfig();
    const portRaw = options.optional('port');
    const port = portRaw === undefined ? config.port : parseDecimalInteger(portRaw);
    if (port === undefined || port > 65535) throw new CliError(`--port "${portRaw}" is not a port number`);
    const host = options.optional('host') ?? config.host;
    const demo = options.flag('demo');
    // Loaded here, not at the top: every other command starts without the HTTP stack.
    const [{ startServer }, { bootstrapDemo }, { loadDemoData }] = await Promise.all([
      import('../../server.js'),
      import('../../demo/bootstrap.js'),
      import('../../demo/load-demo-data.js'),
    ]);
    const served = await store({ serving: true });
    const demoAccount = demo ? await bootstrapDemo(served, loadDemoData) : undefined;
    const running = await startServer({ ...config, databasePath, port, host }, { store: served });
    if (json) {
      stdout.write(`${JSON.stringify({ url: running.url, demo: demoAccount ?? null })}\n`);
    } else {
      stdout.write(`Workspace Read API listening on ${running.url} (database ${addressWithoutPassword(databasePath)})\n`);
      if (running.metricsUrl) stdout.write(`Metrics for Prometheus: ${running.metricsUrl}\n`);
      if (demoAccount) {
        stdout.write(`\nDemo workspace ${demoAccount.workspace_id} created. Its API key (shown once):\n\n  ${demoAccount.key}\n\n`);
        stdout.write(`Try it:\n\n  curl -s -H 'Authorization: Bearer ${demoAccount.key}' ${running.url}/api/v1/me\n\n`);
        stdout.write(`Reference: ${running.url}/docs   Contract: ${running.url}/openapi.json\n`);
      } else if (demo) {
        stdout.write('The demo workspace already exists; its key was shown on first start. Mint another with:\n');
        stdout.write(`  npm run -s cli -- key list --workspace <id>   and   npm run -s cli -- key create --workspace <id> --user <owner id> --name "New key"\n`);
      }
    }
    // The first signal drains (docs/operators.md, "Running several instances"); a second one stops at once.
    await new Promise<void>((resolve) => {
      let signals = 0;
      const stop = () => {
        signals += 1;
        void (signals === 1 ? running.drain() : running.close()).then(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return { stopped: true };
  },
};
