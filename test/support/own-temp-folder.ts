import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Runs `work` with TMPDIR pointing at a temp folder of its own, and answers what `work` left there
 * once it ended: how a test shows that something it closes leaves nothing behind before the
 * process exits (vitest ends its workers without their `exit` event). The folder is removed after,
 * and TMPDIR restored, whatever happens.
 */
export async function leftInOwnTempFolder(work: () => Promise<void>): Promise<string[]> {
  const own = mkdtempSync(path.join(tmpdir(), 'wsapi-own-temp-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = own;
  try {
    await work();
    return readdirSync(own);
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(own, { recursive: true, force: true });
  }
}
