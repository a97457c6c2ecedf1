import { randomBytes } from 'node:crypto';
import type { Store } from '../store/index.js';

const SETTING = 'cursor_secret';

/**
 * The cursor secret the database holds, for a service started without `CURSOR_SECRET`: the first
 * instance over a database stores 32 random bytes, and every instance, then and later, reads the
 * same value, so a cursor one instance gave is good on all of them and after a restart.
 */
export async function storedCursorSecret(store: Store, now: Date): Promise<string> {
  return store.settings.keepFirst(SETTING, randomBytes(32).toString('base64url'), now);
}
