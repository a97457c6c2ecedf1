import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { redeliver } from '../../../src/webhooks/delivery/index.js';
import { createTestWebhook, newWebhookSecret } from '../../support/webhooks.js';
import { emit, onCleanup, startDeliveryWorld, until } from './helpers.js';

const script = fileURLToPath(new URL('../../../examples/webhook-receiver.mjs', import.meta.url));

/** Runs the integrators guide's receiver (docs/integrators.md) as a user would, collecting what it prints. */
async function startExample(secret: string): Promise<{ url: string; output: string[] }> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  onCleanup(() => {
    child.kill();
  });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter((l) => l !== '')));
  await until(() => output.some((l) => l.startsWith('receiving webhooks on ')), 10_000, 'the receiver to listen');
  const url = output[0]!.replace('receiving webhooks on ', '');
  return { url, output };
}

describe('examples/webhook-receiver.mjs', () => {
  it('when deliveries arrive, verifies both signatures, prints each event once and refuses a forged one', async () => {
    const { store, workspace, dispatcher } = await startDeliveryWorld();
    const secret = newWebhookSecret();
    const example = await startExample(secret);
    const hook = await createTestWebhook(store, workspace, { url: example.url, secret });
    await emit(store, workspace.workspaceId, 'topic.status_updated', { id: crypto.randomUUID(), name: 'AI search visibility', stage: 'READY' });
    await until(() => example.output.length >= 2, 10_000, 'the event');
    expect(example.output[1]).toMatch(/^\S+Z +topic\.status_updated +READY +AI search visibility$/);

    await dispatcher.drain();
    const [delivery] = await store.webhookDeliveries.list({ workspace_id: workspace.workspaceId, webhook_id: hook.id, event_type: null, status: null, after: null, limit: 1 });
    await redeliver(store, { workspaceId: workspace.workspaceId, webhookId: hook.id, deliveryId: delivery!.id, now: new Date() });
    await until(() => example.output.length >= 3, 10_000, 'the redelivery');
    expect(example.output[2]).toBe(`duplicate ${delivery!.id}, already handled`);

    const forged = await fetch(example.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      body: '{}',
    });
    expect(forged.status).toBe(400);
    await until(() => example.output.length >= 4, 10_000, 'the refusal');
    expect(example.output[3]).toBe('refused: No matching signature found');
  });
});
