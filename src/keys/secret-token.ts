import { hash, randomBytes } from 'node:crypto';

// Secrets are `<prefix><32 base62 random chars><6 base62 checksum chars>`. 32 base62 characters
// carry ~190 bits. The checksum lets a typo or a made-up value be refused without touching the
// database, and lets secret scanners recognise our tokens.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the top bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

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

export function createSecretToken(prefix: string): string {
  return secretTokenWithBody(prefix, randomBase62(BODY_LENGTH));
}

/**
 * A well-formed token (right length, alphabet and checksum) around a given body: what a client
 * checking the service from outside builds to present a key that passes the format check but was
 * never issued. `body` must be 32 base62 characters.
 */
export function secretTokenWithBody(prefix: string, body: string): string {
  if (body.length !== BODY_LENGTH || !/^[0-9A-Za-z]+$/.test(body)) throw new Error(`a token body is ${BODY_LENGTH} base62 characters`);
  return prefix + body + checksum(prefix, body);
}

/** The characters a token body is made of, for callers that build bodies from their own randomness. */
export const TOKEN_BODY_ALPHABET = ALPHABET;
export const TOKEN_BODY_LENGTH = BODY_LENGTH;

/** True when the value has the shape and checksum of a token with this prefix. */
export function isWellFormedToken(prefix: string, value: string): boolean {
  if (value.length !== prefix.length + BODY_LENGTH + CHECKSUM_LENGTH || !value.startsWith(prefix)) return false;
  const body = value.slice(prefix.length, prefix.length + BODY_LENGTH);
  const sum = value.slice(prefix.length + BODY_LENGTH);
  if (!/^[0-9A-Za-z]+$/.test(body + sum)) return false;
  return checksum(prefix, body) === sum;
}

/** The only form in which a secret is stored. */
export function hashToken(value: string): string {
  return hash('sha256', value, 'hex');
}

/** The non-secret beginning shown in listings: the prefix and four characters. */
export function displayPrefix(prefix: string, value: string): string {
  return value.slice(0, prefix.length + 4);
}
