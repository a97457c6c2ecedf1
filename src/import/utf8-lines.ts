import { isUtf8 } from 'node:buffer';
import { ImportError } from '../import-engine/import-error.js';

const NEWLINE = 0x0a;

/** UTF-16 code units (JavaScript string length) of UTF-8 bytes: one per character, two above U+FFFF. */
function utf16Length(bytes: Buffer): number {
  let units = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const b = bytes[i]!;
    if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
  }
  return units;
}

/** The line of `bytes` (complete lines, the first of them number `firstLine`) that is not valid UTF-8. */
function invalidLine(bytes: Buffer, firstLine: number): ImportError {
  let line = firstLine;
  let start = 0;
  for (let nl = bytes.indexOf(NEWLINE); nl !== -1; nl = bytes.indexOf(NEWLINE, start)) {
    if (!isUtf8(bytes.subarray(start, nl))) break;
    line += 1;
    start = nl + 1;
  }
  return new ImportError(line, '-', 'is not valid UTF-8');
}

function asBuffer(chunk: string | Buffer | Uint8Array): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * Reads newline-delimited UTF-8 from a stream and yields its physical lines (without their `\n`),
 * every complete line of a chunk in one batch, so memory does not grow with the file. Lines are
 * cut on bytes (a `\n` byte never occurs inside a multi-byte character, so characters split
 * across chunks come out whole) and checked before they are decoded: a batch that is not valid
 * UTF-8 fails with an ImportError naming its bad line, instead of reaching the database with
 * U+FFFD in place of its bytes. A line still unfinished beyond `maxLineLength` characters fails
 * too, instead of being buffered.
 */
export async function* readUtf8Lines(
  input: AsyncIterable<string | Buffer | Uint8Array>,
  maxLineLength: number,
): AsyncGenerator<string[], void, undefined> {
  let carry: Buffer[] = [];
  let carryUnits = 0;
  let line = 1;
  const linesOf = (bytes: Buffer): string[] => {
    if (!isUtf8(bytes)) throw invalidLine(bytes, line);
    const lines = bytes.toString('utf8').split('\n');
    line += lines.length;
    return lines;
  };
  for await (const chunk of input) {
    const bytes = asBuffer(chunk);
    const lastNewline = bytes.lastIndexOf(NEWLINE);
    let rest = bytes;
    if (lastNewline !== -1) {
      const head = bytes.subarray(0, lastNewline);
      const lines = linesOf(carry.length === 0 ? head : Buffer.concat([...carry, head]));
      carry = [];
      carryUnits = 0;
      yield lines;
      rest = bytes.subarray(lastNewline + 1);
    }
    if (rest.length === 0) continue;
    carry.push(rest);
    carryUnits += utf16Length(rest);
    if (carryUnits > maxLineLength) throw new ImportError(line, '-', `is longer than ${maxLineLength} characters`);
  }
  if (carry.length > 0) yield linesOf(Buffer.concat(carry));
}
