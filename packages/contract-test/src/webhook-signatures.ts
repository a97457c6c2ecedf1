import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Both signatures the AsyncAPI document promises on every delivery, verified over the raw body as
 * received: `X-Webhook-Signature` (`sha256=` + hex HMAC-SHA256 keyed with the secret string) and
 * the Standard Webhooks headers, through the official `standardwebhooks` library (which also
 * refuses a `webhook-timestamp` more than five minutes away). Answers one problem per signature
 * that does not verify.
 */
export function signatureProblems(secret: string, rawBody: string, headers: IncomingHttpHeaders): string[] {
  const problems: string[] = [];
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`);
  const given = Buffer.from(header(headers, 'x-webhook-signature') ?? '');
  if (given.length === 0) problems.push('X-Webhook-Signature is missing');
  else if (given.length !== expected.length || !timingSafeEqual(given, expected)) problems.push('X-Webhook-Signature does not match the body and the secret');
  try {
    new Webhook(secret).verify(rawBody, {
      'webhook-id': header(headers, 'webhook-id') ?? '',
      'webhook-timestamp': header(headers, 'webhook-timestamp') ?? '',
      'webhook-signature': header(headers, 'webhook-signature') ?? '',
    });
  } catch (err) {
    problems.push(`webhook-signature (Standard Webhooks): ${(err as Error).message}`);
  }
  return problems;
}
