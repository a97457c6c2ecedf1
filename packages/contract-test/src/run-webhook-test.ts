import { bundledContract } from '@workspace-read-api/contract/documents.js';
import { DEFAULT_MAX_ANSWER_BYTES, DEFAULT_MAX_DELIVERY_BYTES, DEFAULT_TIMEOUT_MS } from './read-bounds.js';
import { curlLine, maskSecrets } from './curl-line.js';
import type { JUnitCase } from './junit-report.js';
import { apiJUnitCases } from './junit-report.js';
import { OpenApiContract } from './openapi-contract.js';
import { Pacer } from './pacing.js';
import { NO_EVENT, type WebhookTestReport } from './report.js';
import { RunContext } from './run-context.js';
import { SeededValues } from './seeded-values.js';
import { quoted } from './terminal-text.js';
import { WebhookContract } from './webhook-contract.js';
import { startWebhookReceiver, type ReceivedDelivery } from './webhook-receiver.js';
import { triggerDeliveries, type TriggerOutcome } from './webhook-trigger.js';

export interface WebhookTestOptions {
  host: string;
  port: number;
  secret: string;
  /** The address the service calls (a tunnel or proxy in front of the receiver). */
  publicUrl?: string | undefined;
  /** Make the service send test events and a redelivery through the administration API. */
  trigger?: { baseUrl: string; token: string; workspaceId: string; webhookId: string } | undefined;
  /** Stop after this many deliveries. */
  count?: number | undefined;
  /** Stop after this long in any case; with `trigger`, how long to wait for each delivery. */
  timeoutMs?: number | undefined;
  /** The most of a delivery's body the receiver reads (`--max-body-bytes`); `DEFAULT_MAX_DELIVERY_BYTES` by default. */
  maxBodyBytes?: number | undefined;
  /** Ends a run that waits for deliveries (Ctrl-C). */
  signal?: AbortSignal | undefined;
  progress?: (line: string) => void;
}

export interface WebhookTestRun {
  report: WebhookTestReport;
  junitCases: JUnitCase[];
}

/** How long one delivery may take to arrive whole: twice the time the service gives a receiver to answer. */
const DELIVERY_TIMEOUT_MS = 30_000;

/** A delivery as the run's lines name it: its number, event and `webhook-id`, the sender's words quoted. */
function named(d: ReceivedDelivery): string {
  return `#${d.index} ${d.event === undefined ? '(no event)' : quoted(d.event)} webhook-id ${d.webhookId === undefined ? '(none)' : quoted(d.webhookId)}`;
}

/** Waits for the abort signal, the count of deliveries or the deadline, whichever comes first. */
function stopWhen(options: WebhookTestOptions, deliveries: readonly ReceivedDelivery[], waitFor: (n: number) => Promise<unknown>): Promise<void> {
  const waits: Array<Promise<unknown>> = [];
  if (options.count !== undefined) waits.push(waitFor(options.count));
  if (options.timeoutMs !== undefined) waits.push(new Promise((resolve) => setTimeout(resolve, options.timeoutMs).unref()));
  if (options.signal) waits.push(new Promise((resolve) => options.signal!.addEventListener('abort', resolve, { once: true })));
  if (deliveries.length >= (options.count ?? Infinity) || options.signal?.aborted) return Promise.resolve();
  return waits.length === 0 ? new Promise(() => undefined) : Promise.race(waits).then(() => undefined);
}

/**
 * Receives webhook deliveries and checks each against the AsyncAPI contract and both signatures;
 * with `trigger`, makes the service send them (test events, a redelivery) and checks the API's
 * answers against the OpenAPI contract on the way.
 */
export async function runWebhookTest(options: WebhookTestOptions): Promise<WebhookTestRun> {
  const started = performance.now();
  const progress = options.progress ?? (() => undefined);
  const contract = new WebhookContract(bundledContract.asyncApi());
  const receiver = await startWebhookReceiver({
    host: options.host,
    port: options.port,
    secret: options.secret,
    contract,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_DELIVERY_BYTES,
    requestTimeoutMs: DELIVERY_TIMEOUT_MS,
    onDelivery: (d) => progress(`${d.problems.length === 0 ? 'valid  ' : 'REFUSED'} ${named(d)}${d.isTest ? ' (test)' : ''}${d.repeatOf.length > 0 ? ` (again, first #${d.repeatOf[0]})` : ''}${d.problems.length > 0 ? `: ${maskSecrets(d.problems[0]!)}` : ''}`),
  });
  progress(`receiving webhooks on ${receiver.url}${options.publicUrl ? ` (the service calls ${options.publicUrl})` : ''}; checking them against ${contract.title}`);
  // The trigger makes nothing up, so its values need no seed of the user's.
  const api = options.trigger && new RunContext(new OpenApiContract(bundledContract.openApi()), new Pacer(), new SeededValues(0), { baseUrl: options.trigger.baseUrl, timeoutMs: DEFAULT_TIMEOUT_MS, maxBodyBytes: DEFAULT_MAX_ANSWER_BYTES });
  let outcome: TriggerOutcome = { problems: [], redelivery: null, notChecked: [] };
  try {
    if (options.trigger && api) {
      outcome = await triggerDeliveries(api, receiver, {
        token: { label: 'token', value: options.trigger.token, header: 'Authorization', bearer: true, secret: true, envVar: 'WORKSPACE_API_TOKEN' },
        workspaceId: options.trigger.workspaceId,
        webhookId: options.trigger.webhookId,
        timeoutMs: options.timeoutMs ?? 30_000,
        publicUrl: options.publicUrl,
      });
    } else {
      await stopWhen(options, receiver.deliveries, (n) => receiver.waitFor((d) => d.index >= n, 2 ** 31 - 1));
    }
  } finally {
    await receiver.close();
  }

  const deliveries = receiver.deliveries;
  const countProblem = options.count !== undefined && deliveries.length < options.count
    ? [{ what: 'deliveries', problems: [`expected ${options.count} deliveries, received ${deliveries.length}`] }]
    : [];
  const apiCases = api?.cases ?? [];
  const failures = [
    ...deliveries.filter((d) => d.problems.length > 0).map((d) => ({
      what: `delivery ${named(d)}`,
      problems: d.problems.map(maskSecrets),
      detail: `received ${d.receivedAt}: ${quoted(d.method)} ${quoted(d.path)}`,
    })),
    ...apiCases.filter((c) => c.problems.length > 0).map((c) => ({
      what: `${c.operationId}: ${c.title}`,
      problems: c.problems.map(maskSecrets),
      detail: curlLine(options.trigger!.baseUrl, c.request),
    })),
    ...[...outcome.problems, ...countProblem].map((p) => ({ what: p.what, problems: p.problems, detail: '' })),
  ];
  const byEvent: Record<string, number> = {};
  for (const d of deliveries) byEvent[d.event ?? NO_EVENT] = (byEvent[d.event ?? NO_EVENT] ?? 0) + 1;
  const report: WebhookTestReport = {
    listen_url: receiver.url,
    public_url: options.publicUrl ?? null,
    contract: contract.title,
    deliveries: deliveries.length,
    valid: deliveries.filter((d) => d.problems.length === 0).length,
    refused: deliveries.filter((d) => d.problems.length > 0).length,
    by_event: byEvent,
    repeated_webhook_ids: new Set(deliveries.filter((d) => d.repeatOf.length > 0).map((d) => d.webhookId)).size,
    redelivery: outcome.redelivery,
    duration_ms: Math.round(performance.now() - started),
    failures,
    not_checked: outcome.notChecked,
  };
  const junitCases: JUnitCase[] = [
    ...deliveries.map((d): JUnitCase => ({
      suite: d.event ?? 'unknown event',
      name: `delivery #${d.index} webhook-id ${d.webhookId === undefined ? '(none)' : quoted(d.webhookId)}${d.isTest ? ' (test)' : ''}`,
      timeMs: 0,
      failure: d.problems.length > 0 ? { title: 'refused', problems: d.problems, detail: `${quoted(d.method)} ${quoted(d.path)}` } : undefined,
    })),
    ...(api && options.trigger ? apiJUnitCases(options.trigger.baseUrl, { cases: api.cases, notReached: api.notReached, unreached: [] }, (c) => curlLine(options.trigger!.baseUrl, c.request)) : []),
    ...[...outcome.problems, ...countProblem].map((p): JUnitCase => ({ suite: 'webhook run', name: p.what, timeMs: 0, failure: { title: p.what, problems: p.problems, detail: '' } })),
    ...outcome.notChecked.map((n): JUnitCase => ({ suite: 'webhook run', name: n.split(':')[0]!, timeMs: 0, skipped: n })),
  ];
  return { report, junitCases };
}
