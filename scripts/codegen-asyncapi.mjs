// AsyncAPI half of the codegen; the webhook contract is added by the webhooks work.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { root } from './run-tool.mjs';

export async function generateAsyncApi(_outDir, _banner) {
  if (!existsSync(path.join(root, 'asyncapi', 'asyncapi.yaml'))) return;
  throw new Error('asyncapi/asyncapi.yaml exists but its codegen is not wired yet');
}
