import { describe, expect, it } from 'vitest';
import { simulate } from '../../../src/simulator/simulate.js';
import { createTestWebhook } from '../../support/webhooks.js';
import { createWebhookContract } from '../../support/webhook-contract.js';
import { receiver, startDeliveryWorld, verifyDelivery } from './helpers.js';

describe('webhook delivery: status changes written by imports (the simulator)', () => {
  it('when records move through their lifecycle, each change arrives once, signed, and matches its AsyncAPI message', async () => {
    const { store, workspace } = await startDeliveryWorld();
    const r = await receiver();
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    // 0.5: no research batch or agent task fails, so the story runs its full course.
    const summary = await simulate(store, { workspaceId: workspace.workspaceId, intervalMs: 1, count: 11, random: () => 0.5 });
    // The first step's new topic, persona, task and article announce themselves; the batch's start does not.
    expect(summary).toEqual({ changes: 11, events: 14 });

    const requests = await r.waitForRequests(14);
    const contract = createWebhookContract();
    const seen = requests.map((request) => {
      const body = verifyDelivery(hook.secret, request) as { event: string; is_test: boolean; workspace_id: string; data: Record<string, unknown> };
      expect(contract.body(body.event, body), body.event).toEqual([]);
      expect(contract.headers(body.event, request.headers), body.event).toEqual([]);
      expect(body).toMatchObject({ is_test: false, workspace_id: workspace.workspaceId });
      const { status, stage, processing } = body.data as { status?: string; stage?: string; processing?: { completed: boolean } };
      return [request.headers['x-webhook-event'], status ?? stage ?? (processing?.completed ? 'completed' : 'processing')];
    });
    expect(seen.sort()).toEqual(
      [
        ['agent_task.status_updated', 'QUEUED'],
        ['agent_task.status_updated', 'RUNNING'],
        ['agent_task.status_updated', 'SUCCEEDED'],
        ['content.status_updated', 'DRAFT'],
        ['content.status_updated', 'GENERATED'],
        ['content.status_updated', 'PROCESSING'],
        ['content.status_updated', 'PUBLISHED'],
        ['iq.status_updated', 'PROCESSING'],
        ['iq.status_updated', 'READY'],
        ['research_batch.status_updated', 'COMPLETED'],
        ['sitemap_url.status_updated', 'completed'],
        ['topic.status_updated', 'COMPLETED'],
        ['topic.status_updated', 'PROCESSING'],
        ['topic.status_updated', 'READY'],
      ].sort(),
    );
    expect(new Set(seen.map(([event]) => event))).toEqual(new Set(contract.eventTypes));
  });
});
