import { describe, expect, it } from 'vitest';
import { handlers } from '../../../src/http/read-handlers.js';
import { API_KEY_PREFIX } from '../../../src/keys/api-keys.js';
import { MEMBER_TOKEN_PREFIX } from '../../../src/keys/member-tokens.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';

const server = useTestServer({
  // A failure whose message quotes the request, as a driver or parser error may: its log line
  // must not carry a key either.
  handlers: {
    ...handlers,
    listPrompts: (ctx) => {
      throw new Error(`could not search for ${String(ctx.query.q)}`);
    },
  },
});

/** Every way a client or a proxy may write `text` in a URL: as is, %-escaped in part, in full, twice. */
function spellings(text: string): string[] {
  const escapeAll = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  return [
    text,
    text.replace(/_/g, '%5F'),
    text.replace(/_/g, '%5f'),
    text.replace(/_/g, '%255F'),
    escapeAll(text.slice(0, 9)) + text.slice(9),
    escapeAll(text),
    text.slice(0, 9).toUpperCase() + text.slice(9),
  ];
}

/** A log line as far as %-decoding takes it, so no spelling of a secret hides in it. */
function decodedFully(line: string): string {
  let current = line;
  for (let i = 0; i < 5; i++) {
    const next = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === current) break;
    current = next;
  }
  return current;
}

describe('the request log', () => {
  it('never carries a key or a member token pasted into a URL, in any %-escaping or letter case, in the path or the query', async () => {
    const ws = await createTestWorkspace(server.store);
    const { token } = await createTestMemberToken(server.store, ws);
    const secrets = [ws.key.slice(API_KEY_PREFIX.length), token.slice(MEMBER_TOKEN_PREFIX.length)];
    const before = server.logLines().length;

    const statuses: number[] = [];
    for (const spelled of spellings(ws.key)) {
      statuses.push((await send(server.url, { path: `/api/v1/me?api_key=${spelled}`, key: ws.key })).status);
      statuses.push((await send(server.url, { path: `/api/v1/visibility/${spelled}`, key: ws.key })).status);
      statuses.push((await send(server.url, { path: `/api/v1/visibility/prompts?q=${spelled}`, key: ws.key })).status);
    }
    for (const spelled of spellings(token)) {
      statuses.push((await send(server.url, { path: `/api/workspace/${ws.workspaceId}/members?token=${spelled}`, key: token })).status);
      statuses.push((await send(server.url, { path: `/api/workspace/${ws.workspaceId}/${spelled}`, key: token })).status);
    }
    expect(new Set(statuses)).toEqual(new Set([422, 404, 500]));

    const lines = server.logLines().slice(before);
    expect(lines.length).toBeGreaterThanOrEqual(statuses.length);
    expect(lines.some((line) => line.includes('could not search for'))).toBe(true);
    for (const secret of secrets) {
      const leaking = lines.filter((line) => decodedFully(line).toLowerCase().includes(secret.toLowerCase()));
      expect(leaking, `a log line carries ${secret.slice(0, 4)}…`).toEqual([]);
    }
    // What was there is still visible as redacted, so a reader knows a secret was sent.
    expect(lines.filter((line) => line.includes(`${API_KEY_PREFIX}[redacted]`)).length).toBeGreaterThanOrEqual(spellings(ws.key).length);
  });
});
