import { isDeepStrictEqual } from 'node:util';
import { credentialWays } from './credentials.js';
import { all, status, succeeds } from './expectations.js';
import type { Credential, ObservedResponse } from './http-exchange.js';
import { fillPath } from './read-cases.js';
import type { RunContext } from './run-context.js';
import { quoted } from './terminal-text.js';
import type { ReceivedDelivery, WebhookReceiver } from './webhook-receiver.js';

/** A problem of the run that is not one request's answer: a delivery that never came, a redelivery that changed. */
interface TriggerProblem {
  what: string;
  problems: string[];
}

interface RedeliveryCheck {
  delivery_id: string;
  /** How many times the receiver got it, first arrival included. */
  arrivals: number;
  /** Every arrival carried the delivery's id as `webhook-id` and the same bytes. */
  stable: boolean;
}

export interface TriggerOutcome {
  problems: TriggerProblem[];
  redelivery: RedeliveryCheck | null;
  notChecked: string[];
}

/**
 * Makes the service send deliveries to the receiver through the administration API: one test
 * event per event type the webhook subscribes to, then a redelivery of one of its deliveries (twice
 * when the receiver had not seen it, so that two arrivals of one `webhook-id` can be compared).
 * Every answer of the API is checked against the OpenAPI contract on the way.
 */
export async function triggerDeliveries(
  ctx: RunContext,
  receiver: WebhookReceiver,
  options: { token: Credential; workspaceId: string; webhookId: string; timeoutMs: number; publicUrl: string | undefined },
): Promise<TriggerOutcome> {
  const outcome: TriggerOutcome = { problems: [], redelivery: null, notChecked: [] };
  const values = { workspace_id: options.workspaceId, webhook_id: options.webhookId };
  const call = async (operationId: string, title: string, extra: { query?: Array<[string, string]>; body?: unknown; values?: Record<string, string> }, expect = succeeds): Promise<ObservedResponse | undefined> => {
    const op = ctx.contract.operation(operationId);
    if (!op) {
      outcome.notChecked.push(`${title}: the contract has no operation ${operationId}`);
      return undefined;
    }
    const credential = credentialWays(ctx.contract, op, options.token.label, options.token.value)[0] ?? options.token;
    return ctx.exchange(op, title, { method: op.method, path: fillPath(op.path, { ...values, ...extra.values }), query: extra.query ?? [], credential, body: extra.body }, expect);
  };
  const arrival = (after: number, matches: (d: ReceivedDelivery) => boolean) => receiver.waitFor((d) => d.index > after && matches(d), options.timeoutMs);

  const webhook = (await call('getWebhook', 'the webhook to trigger', {}))?.json as { data?: { url?: string; events?: string[] } } | undefined;
  const events = webhook?.data?.events ?? [];
  if (!webhook?.data) {
    outcome.problems.push({ what: 'trigger', problems: [`webhook ${options.webhookId} could not be read`] });
    return outcome;
  }
  if (options.publicUrl && webhook.data.url && !webhook.data.url.startsWith(options.publicUrl)) {
    outcome.notChecked.push(`the webhook posts to ${quoted(webhook.data.url)}, not to --public-url ${options.publicUrl}`);
  }

  for (const event of events) {
    const before = receiver.deliveries.length;
    const answer = await call('testWebhook', `send a test ${event}`, { body: { event } }, all(succeeds, (response) => {
      const result = (response.json as { data?: { success?: unknown; http_status?: unknown; error?: unknown } } | undefined)?.data;
      return result?.success === true ? [] : [`the service reports the test delivery failed: http_status ${JSON.stringify(result?.http_status)}, error ${JSON.stringify(result?.error)}`];
    }));
    if (!answer) continue;
    if (!await arrival(before, (d) => d.event === event && d.isTest === true)) {
      outcome.problems.push({ what: `test ${event}`, problems: [`no test delivery of ${event} arrived within ${options.timeoutMs / 1000} s`] });
    }
  }

  const listed = (await call('listWebhookDeliveries', 'deliveries to redeliver', { query: [['limit', '25']] }))?.json as
    { data?: { items?: Array<{ id: string; payload?: unknown }> } } | undefined;
  const items = listed?.data?.items ?? [];
  const chosen = items.find((d) => receiver.deliveries.some((r) => r.webhookId === d.id)) ?? items[0];
  if (!chosen) {
    outcome.notChecked.push('webhook-id stability: the webhook has no delivery to redeliver yet (make a record change status first, e.g. with `simulate`)');
    return outcome;
  }
  const problems: string[] = [];
  for (let round = 0; round < 2; round += 1) {
    const before = receiver.deliveries.length;
    const sent = await call('redeliverWebhookDelivery', `redeliver ${quoted(chosen.id)}`, { values: { delivery_id: chosen.id } }, all(succeeds, status(202)));
    if (!sent) break;
    const got = await arrival(before, (d) => d.webhookId === chosen.id);
    if (!got) {
      problems.push(`the redelivery of ${quoted(chosen.id)} did not arrive within ${options.timeoutMs / 1000} s`);
      break;
    }
    let body: unknown;
    try {
      body = JSON.parse(got.rawBody);
    } catch {
      body = undefined;
    }
    if (chosen.payload !== undefined && !isDeepStrictEqual(body, chosen.payload)) problems.push(`the redelivered body differs from the payload the deliveries list shows for ${quoted(chosen.id)}`);
    // One earlier arrival is enough to compare bytes; the receiver compares them on arrival.
    if (got.repeatOf.length > 0) break;
  }
  const arrivals = receiver.deliveries.filter((d) => d.webhookId === chosen.id);
  const stable = problems.length === 0 && arrivals.length >= 2 && arrivals.every((d) => d.rawBody === arrivals[0]!.rawBody);
  if (arrivals.length >= 2 && !stable && problems.length === 0) problems.push(`the arrivals of ${quoted(chosen.id)} differ in their bytes`);
  if (problems.length > 0) outcome.problems.push({ what: `redelivery of ${quoted(chosen.id)}`, problems });
  outcome.redelivery = { delivery_id: chosen.id, arrivals: arrivals.length, stable };
  return outcome;
}
