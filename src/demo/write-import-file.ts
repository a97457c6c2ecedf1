import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * Writes import lines to a file in blocks of about 64 KiB, waiting for the file to drain, so a
 * million generated lines never sit in memory. Resolves with how many lines it wrote.
 */
export async function writeImportFile(file: string, lines: Iterable<string>): Promise<number> {
  const out = createWriteStream(file);
  let count = 0;
  let buffer = '';
  for (const line of lines) {
    count += 1;
    buffer += `${line}\n`;
    if (buffer.length > 1 << 16) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  return count;
}
