import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { redeliver } from '../../../src/webhooks/delivery/index.js';
import { createTestWebhook, newWebhookSecret } from '../../support/webhooks.js';
import { emit, onCleanup, startDeliveryWorld, until } from './helpers.js';

const script = fileURLToPath(new URL('../../../examples/webhook-receiver.mjs', import.meta.url));

/** Runs the integrators guide's receiver (docs/integrators.md) as a user would, collecting what it prints. */
async function startExample(secret: string, previousSecret?: string): Promise<{ url: string; output: string[] }> {
  const env = { ...process.env, WEBHOOK_SECRET: secret, PORT: '0', ...(previousSecret ? { WEBHOOK_PREVIOUS_SECRET: previousSecret } : {}) };
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
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
  it('when deliveries arrive, verifies them, prints each event once and refuses a forged one', async () => {
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
    expect(example.output[3]).toBe('refused: webhook-signature matches no secret');
  });

  it('verifies by either secret during a rotation; refuses X-Webhook-Signature alone (no time: a replay) and a non-ASCII signature', async () => {
    const { store, workspace } = await startDeliveryWorld();
    const previous = newWebhookSecret();
    const current = newWebhookSecret();
    // A receiver still holding only the previous secret, while the service signs with both.
    const example = await startExample(previous);
    await createTestWebhook(store, workspace, { url: example.url, secret: current, previousSecret: previous, previousSecretExpiresAt: new Date(Date.now() + 3_600_000) });
    await emit(store, workspace.workspaceId, 'topic.status_updated', { id: crypto.randomUUID(), name: 'Rotation', stage: 'READY' });
    await until(() => example.output.length >= 2, 10_000, 'the event');
    expect(example.output[1]).toMatch(/^\S+Z +topic\.status_updated +READY +Rotation$/);

    const body = '{"event":"topic.status_updated"}';
    const legacy = await fetch(example.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': `sha256=${createHmac('sha256', previous).update(body).digest('hex')}` },
      body,
    });
    expect(legacy.status).toBe(400);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const valid = createHmac('sha256', Buffer.from(previous.slice('whsec_'.length), 'base64')).update(`msg_1.${timestamp}.${body}`).digest('base64');
    const nonAscii = await fetch(example.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${valid.slice(0, -2)}\u00e9=` },
      body,
    });
    expect(nonAscii.status).toBe(400);
    await until(() => example.output.length >= 4, 10_000, 'the refusals');
    expect(example.output.slice(2)).toEqual(['refused: webhook-id, webhook-timestamp and webhook-signature are required', 'refused: webhook-signature matches no secret']);
  });
});
