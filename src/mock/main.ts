// `npm run mock [-- --port N]`: the read API answered from the contract's examples, on loopback.
import { parseDecimalInteger } from '../text/decimal-integer.js';

function portFrom(argv: string[]): number {
  const i = argv.indexOf('--port');
  if (i < 0) return 4010;
  const port = parseDecimalInteger(argv[i + 1] ?? '');
  if (port === undefined || port > 65535) throw new Error(`--port "${argv[i + 1] ?? ''}" is not a port number`);
  return port;
}

// The port is read before the mock's modules load (most of its start): a mistyped one is refused at once.
const port = portFrom(process.argv.slice(2));
const [{ default: pino }, { loadConfig }, { loadOpenApiDocument }, { operationsWithoutExamples }, { startMockServer }] = await Promise.all([
  import('pino'), import('../config.js'), import('@workspace-read-api/contract/documents.js'), import('./example-handlers.js'), import('./mock-server.js'),
]);
const logger = pino({ level: 'warn' });
const unserved = operationsWithoutExamples(loadOpenApiDocument());
if (unserved.length > 0) logger.warn({ unserved }, 'these documented answers have no example; the mock answers them with an empty body');
const { corsAllowedOrigins } = loadConfig().http;
const mock = await startMockServer({ port, host: '127.0.0.1', logger, corsAllowedOrigins });
process.stdout.write(`Mock of the Workspace Read API at ${mock.url} (answers from the contract's examples).

Its API key (any other key gets 401 with code 4022, none gets 4021):

  ${mock.key}

  curl -s -H 'Authorization: Bearer ${mock.key}' ${mock.url}/api/v1/me
  curl -s -H 'Authorization: Bearer ${mock.key}' -H 'Prefer: code=404' ${mock.url}/api/v1/visibility/prompts/5b0e7c1e-3c52-4d3a-9a43-0f3a3c1f8d21

Reference: ${mock.url}/docs
`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void mock.close().then(() => process.exit(0));
  });
}
