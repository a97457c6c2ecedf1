import { requestHeaders, requestUrl, type OutgoingRequest } from './http-exchange.js';

/** Anything shaped like a key, member token or webhook secret, wherever it appears in text. */
const SECRET_SHAPES = /\b(ws[km]_live_)([0-9A-Za-z]{4})[0-9A-Za-z]+|\b(whsec_)[A-Za-z0-9+/=]{8,}/g;

/** Hides every secret in a text, keeping what identifies it (`wsk_live_Ab3d…`, `whsec_…`). */
export function maskSecrets(text: string): string {
  return text.replace(SECRET_SHAPES, (_m, prefix?: string, first?: string, webhookPrefix?: string) =>
    webhookPrefix ? `${webhookPrefix}…` : `${prefix}${first}…`);
}

function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The request as a `curl` line a reader can paste: a credential the user gave appears as its
 * environment variable (`"Authorization: Bearer $WORKSPACE_API_KEY"`), any other secret masked.
 */
export function curlLine(baseUrl: string, request: OutgoingRequest): string {
  // `-X HEAD` would wait for a body that never comes (curl exits 18); `-I` sends a HEAD and prints the headers.
  const parts = ['curl', '-sS', request.method === 'HEAD' ? '-I' : '-i'];
  if (request.method !== 'GET' && request.method !== 'HEAD') parts.push('-X', request.method);
  const credentialHeader = request.credential?.header.toLowerCase();
  for (const [name, value] of Object.entries(requestHeaders(request))) {
    if (name === 'accept') continue;
    const credential = name === credentialHeader ? request.credential : undefined;
    if (credential?.envVar) {
      parts.push('-H', `"${name === 'authorization' ? 'Authorization' : credential.header}: ${credential.bearer ? 'Bearer ' : ''}$${credential.envVar}"`);
    } else {
      parts.push('-H', singleQuoted(maskSecrets(`${name === 'authorization' ? 'Authorization' : name}: ${value}`)));
    }
  }
  if (request.body !== undefined) parts.push('--data', singleQuoted(maskSecrets(JSON.stringify(request.body))));
  parts.push(singleQuoted(requestUrl(baseUrl, request)));
  return parts.join(' ');
}
