import { API_KEY_PREFIX } from '../keys/api-keys.js';
import { MEMBER_TOKEN_PREFIX } from '../keys/member-tokens.js';
import { SECRET_PREFIX } from '../webhooks/subscriptions.js';
import { CONSOLE_SESSION_PREFIX, SIGN_IN_LINK_PREFIX } from '../keys/console-sessions.js';

// A character as a URL may carry it: itself, or %-escaped once or more (`_`, `%5F`, `%5f`,
// `%255F`, ...). Matching every spelling in the raw text redacts what decoding would reveal
// without rewriting the rest of the line (a decoded JSON log line could lose its quoting).
const escaped = (c: string): string => `%(?:25)*${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
const SECRET_CHARACTER = '(?:[A-Za-z0-9_+/=-]|%(?:25)*[0-9a-f]{2})';

const PATTERNS = [API_KEY_PREFIX, MEMBER_TOKEN_PREFIX, SECRET_PREFIX, SIGN_IN_LINK_PREFIX, CONSOLE_SESSION_PREFIX].map((prefix) => ({
  prefix,
  pattern: new RegExp(`${[...prefix].map((c) => `(?:${c.replace(/[^A-Za-z0-9]/g, '\\$&')}|${escaped(c)})`).join('')}${SECRET_CHARACTER}+`, 'gi'),
}));

/**
 * Masks whatever looks like an API key, member token, webhook secret, console sign-in link or
 * console session in `text`, in any letter
 * case and under any %-escaping: `?api_key=wsk%5Flive%5F…` is a key to the server once decoded,
 * so it is one to the log too.
 */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const { prefix, pattern } of PATTERNS) out = out.replace(pattern, `${prefix}[redacted]`);
  return out;
}

/** A serialised error (message, stack, any field) with every secret masked; errors can quote the request. */
export function scrubSecretsDeep<T>(value: T): T {
  const text = JSON.stringify(value);
  if (text === undefined) return value;
  const scrubbed = scrubSecrets(text);
  return scrubbed === text ? value : (JSON.parse(scrubbed) as T);
}
