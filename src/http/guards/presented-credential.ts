import type { IncomingMessage } from 'node:http';

/** What the request's credential headers amount to. */
export type PresentedCredential =
  | { kind: 'none' }
  | { kind: 'one'; value: string }
  | { kind: 'refused'; message: string };

const SEND_ONE = 'Two different credentials were sent (in `Authorization` and `X-API-KEY`, or in one header twice): '
  + 'send one, as `Authorization: Bearer <credential>` or `X-API-KEY: <credential>`.';
const BEARER_ONLY = '`Authorization` takes only the Bearer scheme (RFC 6750): send `Authorization: Bearer <credential>`, '
  + 'or the credential alone in `X-API-KEY`.';

// `Bearer` in any letter case (RFC 9110 scheme names are case-insensitive), then the credential.
// `Bearer` with nothing after it sends no credential at all: missing (4021), not invalid.
const BEARER = /^Bearer(?:[ \t]+(.*))?$/i;

/**
 * The one credential a request presents, from `Authorization: Bearer <credential>` and
 * `X-API-KEY: <credential>` (every instance of each header, as sent). The same value in both is
 * one credential; two different values are refused rather than one of them chosen, and an
 * `Authorization` header in any other scheme (a bare key, `Basic …`) is refused rather than
 * guessed at.
 */
export function presentedCredential(req: IncomingMessage): PresentedCredential {
  const sent = new Set<string>();
  for (const raw of req.headersDistinct['x-api-key'] ?? []) {
    const value = raw.trim();
    if (value !== '') sent.add(value);
  }
  for (const raw of req.headersDistinct.authorization ?? []) {
    const value = raw.trim();
    if (value === '') continue;
    const match = BEARER.exec(value);
    if (!match) return { kind: 'refused', message: BEARER_ONLY };
    const credential = match[1]?.trim();
    if (credential) sent.add(credential);
  }
  if (sent.size > 1) return { kind: 'refused', message: SEND_ONE };
  const [value] = sent;
  return value === undefined ? { kind: 'none' } : { kind: 'one', value };
}
