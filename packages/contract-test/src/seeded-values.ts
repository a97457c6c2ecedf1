import { createHash } from 'node:crypto';
import { secretTokenWithBody, TOKEN_BODY_ALPHABET, TOKEN_BODY_LENGTH } from '@workspace-read-api/contract/token-format.js';

/**
 * Numbers in [0, 1) from SHA-256 in counter mode, eight per digest: the same seed gives the same
 * stream on every machine and Node line.
 */
function hashStream(seed: number): () => number {
  let counter = 0;
  let block = Buffer.alloc(0);
  let offset = 0;
  return () => {
    if (offset >= block.length) {
      block = createHash('sha256').update(`${seed}#${counter}`).digest();
      counter += 1;
      offset = 0;
    }
    const value = block.readUInt32BE(offset);
    offset += 4;
    return value / 4_294_967_296;
  };
}

/**
 * Every made-up input of a run (unknown ids, unknown parameter names, the unissued key, the seeds
 * of the property-based variations) comes from here, so the same `--seed` sends the same requests
 * to the same data.
 */
export class SeededValues {
  private readonly next: () => number;

  constructor(readonly seed: number) {
    this.next = hashStream(seed);
  }

  /** A stable seed for one named part of the run, unaffected by how much the other parts drew. */
  seedFor(name: string): number {
    return createHash('sha256').update(`${this.seed}:${name}`).digest().readInt32BE(0);
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  /** A version 4 UUID, most unlikely to name anything on the server. */
  uuid(): string {
    const bytes = Array.from({ length: 16 }, () => this.int(256));
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** A token with the service's format and a valid checksum that nobody issued (4022, not 4021). */
  unissuedToken(prefix: string): string {
    const body = Array.from({ length: TOKEN_BODY_LENGTH }, () => TOKEN_BODY_ALPHABET[this.int(TOKEN_BODY_ALPHABET.length)]).join('');
    return secretTokenWithBody(prefix, body);
  }

  /** A query parameter name no operation documents. */
  unknownParameterName(): string {
    return `zz_unknown_${this.int(1_000_000).toString(36)}`;
  }
}
