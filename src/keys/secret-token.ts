import { hash, randomBytes } from 'node:crypto';
import { secretTokenWithBody, TOKEN_BODY_ALPHABET, TOKEN_BODY_LENGTH } from '@workspace-read-api/contract/token-format.js';

export { isWellFormedToken } from '@workspace-read-api/contract/token-format.js';

// A secret's form (prefix, body, checksum) is the contract's (token-format.ts of the contract
// package); what is the service's own is drawing its body from the system's randomness, and how a
// secret is stored and shown.

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the top bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += TOKEN_BODY_ALPHABET[byte % 62];
    }
  }
  return out;
}

export function createSecretToken(prefix: string): string {
  return secretTokenWithBody(prefix, randomBase62(TOKEN_BODY_LENGTH));
}

/** The only form in which a secret is stored. */
export function hashToken(value: string): string {
  return hash('sha256', value, 'hex');
}

/** The non-secret beginning shown in listings: the prefix and four characters. */
export function displayPrefix(prefix: string, value: string): string {
  return value.slice(0, prefix.length + 4);
}
