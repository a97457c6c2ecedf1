import { hash } from 'node:crypto';

// The wire form of every secret the service issues (API keys, member tokens, console sessions):
// `<prefix><32 base62 characters><6 base62 checksum characters>`. 32 base62 characters carry ~190
// bits. The checksum lets a typo or a made-up value be refused (4021) without touching the
// database, and lets secret scanners recognise the tokens; a well-formed token nobody issued is
// refused as unknown (4022). Both the service and a checker of it from outside build on this.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

/** The characters a token body is made of, for callers that build bodies from their own randomness. */
export const TOKEN_BODY_ALPHABET = ALPHABET;
export const TOKEN_BODY_LENGTH = BODY_LENGTH;

function checksum(prefix: string, body: string): string {
  const digest = hash('sha256', prefix + body, 'buffer');
  let n = digest.readUInt32BE(0) * 0x100 + (digest[4] ?? 0); // 40 bits
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i += 1) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/**
 * A well-formed token (right length, alphabet and checksum) around a given body: how the service
 * finishes a secret, and what a client checking the service from outside builds to present a key
 * that passes the format check but was never issued. `body` must be 32 base62 characters.
 */
export function secretTokenWithBody(prefix: string, body: string): string {
  if (body.length !== BODY_LENGTH || !/^[0-9A-Za-z]+$/.test(body)) throw new Error(`a token body is ${BODY_LENGTH} base62 characters`);
  return prefix + body + checksum(prefix, body);
}

/** True when the value has the shape and checksum of a token with this prefix. */
export function isWellFormedToken(prefix: string, value: string): boolean {
  if (value.length !== prefix.length + BODY_LENGTH + CHECKSUM_LENGTH || !value.startsWith(prefix)) return false;
  const body = value.slice(prefix.length, prefix.length + BODY_LENGTH);
  const sum = value.slice(prefix.length + BODY_LENGTH);
  if (!/^[0-9A-Za-z]+$/.test(body + sum)) return false;
  return checksum(prefix, body) === sum;
}
