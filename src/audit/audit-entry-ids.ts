import { randomBytes } from 'node:crypto';

let lastMs = -1;
let sequence = 0;

/**
 * A UUID version 7 (RFC 9562): the time in its first 48 bits, then a counter within the
 * millisecond, then randomness. Ids made one after another in this process sort in that order,
 * so the entries one change writes at one instant keep their order under the log's (time, id) sort.
 */
export function newAuditEntryId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else {
    sequence += 1;
  }
  const bytes = randomBytes(16);
  const ms = Math.max(now, lastMs);
  bytes.writeUIntBE(ms, 0, 6);
  // Twelve bits of counter (rand_a); past 4,095 in one millisecond the order is left to chance.
  const counter = sequence & 0x0fff;
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
