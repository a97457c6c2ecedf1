import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookContract } from './webhook-contract.js';
import { overBoundProblem } from './read-bounds.js';
import { quoted } from './terminal-text.js';
import { signatureProblems } from './webhook-signatures.js';

/** One request the receiver took, and what was wrong with it. */
export interface ReceivedDelivery {
  /** 1-based, in order of arrival. */
  index: number;
  receivedAt: string;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  webhookId: string | undefined;
  event: string | undefined;
  isTest: boolean | undefined;
  /** Earlier arrivals with the same `webhook-id` (a retry or a redelivery). */
  repeatOf: number[];
  problems: string[];
}

export interface WebhookReceiver {
  url: string;
  deliveries: ReceivedDelivery[];
  /** Resolves with the first delivery (received so far or later) that matches; undefined after `timeoutMs`. */
  waitFor: (matches: (d: ReceivedDelivery) => boolean, timeoutMs: number) => Promise<ReceivedDelivery | undefined>;
  close: () => Promise<void>;
}

function headerText(headers: http.IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Checks one delivery against the webhook contract: method, JSON body against the message of its
 * event, headers against the message's header schema, `X-Webhook-Event` equal to `event`,
 * `X-Webhook-Delivery` equal to `webhook-id`, both signatures, and, for a `webhook-id` seen before,
 * the same bytes as the first time (the contract promises them on every retry and redelivery).
 */
function check(contract: WebhookContract, secret: string, delivery: Omit<ReceivedDelivery, 'problems'>, earlier: readonly ReceivedDelivery[]): string[] {
  const problems: string[] = [];
  if (!contract.methods().includes(delivery.method)) problems.push(`method ${quoted(delivery.method)}, not ${contract.methods().join(' or ')}`);
  let body: unknown;
  try {
    body = JSON.parse(delivery.rawBody);
  } catch {
    problems.push('body: not valid JSON');
  }
  if (body !== undefined) problems.push(...contract.problems(body, delivery.headers));
  const event = headerText(delivery.headers, 'x-webhook-event');
  if (body !== undefined && event !== undefined && event !== delivery.event) problems.push(`X-Webhook-Event is ${quoted(event)}, the body's event is ${delivery.event === undefined ? 'missing' : quoted(delivery.event)}`);
  const deliveryId = headerText(delivery.headers, 'x-webhook-delivery');
  if (deliveryId !== undefined && deliveryId !== delivery.webhookId) problems.push(`X-Webhook-Delivery ${quoted(deliveryId)} differs from webhook-id ${delivery.webhookId === undefined ? '(none)' : quoted(delivery.webhookId)}`);
  problems.push(...signatureProblems(secret, delivery.rawBody, delivery.headers));
  const first = earlier.find((d) => delivery.webhookId !== undefined && d.webhookId === delivery.webhookId);
  if (first && first.rawBody !== delivery.rawBody) problems.push(`webhook-id ${quoted(delivery.webhookId!)} came before (delivery ${first.index}) with other bytes`);
  return problems;
}

/**
 * A receiver on `host:port` that checks every request it gets as a webhook delivery and answers
 * 204 when it matches the contract, 400 with the problems (which the service keeps in its delivery
 * log) when it does not.
 */
export async function startWebhookReceiver(options: {
  host: string;
  port: number;
  secret: string;
  contract: WebhookContract;
  /** The most of a request's body read (`--max-body-bytes`); a longer one is refused with 413, unread. */
  maxBodyBytes: number;
  /** How long one request may take to arrive whole; a slower one is cut off with 408. */
  requestTimeoutMs: number;
  onDelivery?: (delivery: ReceivedDelivery) => void;
}): Promise<WebhookReceiver> {
  const deliveries: ReceivedDelivery[] = [];
  const waiters = new Set<() => void>();
  const settle = (base: Omit<ReceivedDelivery, 'problems' | 'index' | 'repeatOf'>, problems: (delivery: Omit<ReceivedDelivery, 'problems'>) => string[]): ReceivedDelivery => {
    const withIndex = {
      ...base,
      index: deliveries.length + 1,
      repeatOf: deliveries.filter((d) => base.webhookId !== undefined && d.webhookId === base.webhookId).map((d) => d.index),
    };
    const delivery: ReceivedDelivery = { ...withIndex, problems: problems(withIndex) };
    deliveries.push(delivery);
    options.onDelivery?.(delivery);
    for (const wake of [...waiters]) wake();
    return delivery;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const received = (rawBody: string) => {
      let parsed: { event?: unknown; is_test?: unknown } | undefined;
      try {
        parsed = JSON.parse(rawBody) as typeof parsed;
      } catch {
        parsed = undefined;
      }
      return {
        receivedAt: new Date().toISOString(),
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody,
        webhookId: headerText(req.headers, 'webhook-id'),
        event: typeof parsed?.event === 'string' ? parsed.event : undefined,
        isTest: typeof parsed?.is_test === 'boolean' ? parsed.is_test : undefined,
      };
    };
    let settled = false;
    const onData = (chunk: Buffer): void => {
      length += chunk.length;
      if (length <= options.maxBodyBytes) {
        chunks.push(chunk);
        return;
      }
      // Past the bound nothing more is read: the sender gets a 413 and the connection is closed.
      req.off('data', onData);
      req.off('end', onEnd);
      settled = true;
      chunks.length = 0;
      const problem = overBoundProblem('delivery', options.maxBodyBytes);
      settle(received(''), () => [problem]);
      res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${problem}\n`, () => req.destroy());
    };
    const onEnd = (): void => {
      settled = true;
      const delivery = settle(received(Buffer.concat(chunks).toString('utf8')), (d) => check(options.contract, options.secret, d, deliveries));
      if (delivery.problems.length === 0) res.writeHead(204).end();
      else res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end(`${delivery.problems.join('\n')}\n`);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    // A request cut off before its end (the sender went away, or the time bound below passed) is a failed delivery too.
    req.on('close', () => {
      if (settled) return;
      settled = true;
      settle(received(''), () => [`the request ended after ${length} bytes, before its body was whole (a sender that stopped, or took longer than ${options.requestTimeoutMs / 1000} s)`]);
    });
  });
  // A sender that never finishes its request is cut off (the service itself gives up on a receiver after 15 s).
  server.requestTimeout = options.requestTimeoutMs;
  server.headersTimeout = Math.min(options.requestTimeoutMs, 60_000);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/`,
    deliveries,
    waitFor: (matches, timeoutMs) => new Promise((resolve) => {
      const found = deliveries.find(matches);
      if (found) return resolve(found);
      const wake = () => {
        const hit = deliveries.find(matches);
        if (!hit) return;
        clearTimeout(timer);
        waiters.delete(wake);
        resolve(hit);
      };
      const timer = setTimeout(() => {
        waiters.delete(wake);
        resolve(undefined);
      }, timeoutMs);
      waiters.add(wake);
    }),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
