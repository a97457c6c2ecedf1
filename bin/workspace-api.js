#!/usr/bin/env node
// The `workspace-api` command: runs the compiled CLI in dist/ (built by `npm run build`, which
// `npm ci` runs through `prepare`). Development runs the TypeScript directly: `npm run -s cli`.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('workspace-api: dist/ is missing; run `npm run build` first.\n');
  process.exit(1);
}
await import(main.href);
