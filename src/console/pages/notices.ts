import type { Html } from '../html.js';
import { notice } from '../layout.js';

/**
 * What a redirect after a write says happened, by a fixed code in `?done=`: a link can only choose
 * among these sentences, never write its own text on the page.
 */
const DONE: Record<string, string> = {
  'key-updated': 'The key was saved.',
  'key-revoked': 'The key was revoked.',
  'key-revoked-create': 'The key was revoked. Create another below.',
  'webhook-updated': 'The webhook was saved.',
  'webhook-enabled': 'The webhook was enabled; its failure count starts again from zero.',
  'webhook-disabled': 'The webhook was disabled: no event is sent to it until it is enabled.',
  'webhook-deleted': 'The webhook was deleted.',
  'delivery-redelivered': 'The delivery was queued again; its new attempt appears below once made.',
  'member-updated': 'The role was changed.',
  'member-removed': 'The member was removed, and their API keys and member tokens revoked for good.',
};

export function noticeFor(code: string | undefined): Html | undefined {
  const text = code === undefined ? undefined : DONE[code];
  return text === undefined ? undefined : notice('info', text);
}
