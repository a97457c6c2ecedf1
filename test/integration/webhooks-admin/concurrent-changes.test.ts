import { describe, expect, it } from 'vitest';
import { createTestKey } from '../../support/accounts.js';
import { rowsOf } from '../../support/database-rows.js';
import { NO_RATE_LIMIT, useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook } from './helpers.js';

// Changes that read a key or a webhook and write it back, sent at the same instant: whatever the
// interleaving, what each acknowledged answer says must hold afterwards.

const server = useTestServer({ allowPrivateWebhookTargets: true, rateLimit: NO_RATE_LIMIT });

const ALL = ['workspace:read', 'visibility:read', 'contentmap:read', 'content:read', 'iq:read'] as const;
/** Scope sets sent together to one key: two disjoint narrowings, and one nested in another. */
const ROUNDS: ReadonlyArray<ReadonlyArray<ReadonlyArray<string>>> = [
  [['workspace:read', 'visibility:read'], ['contentmap:read', 'content:read']],
  [['workspace:read', 'visibility:read', 'contentmap:read'], ['visibility:read', 'contentmap:read'], ['iq:read']],
  [['iq:read', 'content:read'], ['iq:read'], ['workspace:read', 'iq:read', 'content:read']],
];

describe('concurrent changes of one key or webhook', () => {
  it('PATCHes that narrow one key at once never widen it: its final scopes are within every acknowledged answer\'s scopes (30 rounds)', async () => {
    const { workspace, call } = await adminWorld(server);
    const violations: string[] = [];
    let acknowledged = 0;
    for (let round = 0; round < 30; round++) {
      const sets = ROUNDS[round % ROUNDS.length]!;
      const key = await createTestKey(server.store, workspace, { scopes: ALL });
      const answers = await Promise.all(sets.map((scopes) => call({ method: 'PATCH', path: `/api-keys/${key.id}`, body: { scopes } })));
      const listed = await call({ path: '/api-keys', query: { limit: 100 } });
      const final = (listed.body as { data: { items: Array<{ id: string; scopes: string[] }> } }).data.items.find((k) => k.id === key.id)!.scopes;
      answers.forEach((answer, i) => {
        if (answer.status === 200) {
          acknowledged += 1;
          const said = (answer.body as { data: { scopes: string[] } }).data.scopes;
          expect(said).toEqual([...sets[i]!].sort((a, b) => ALL.indexOf(a as never) - ALL.indexOf(b as never)));
          const removedYetHeld = final.filter((s) => !said.includes(s));
          if (removedYetHeld.length > 0) violations.push(`round ${round}: PATCH ${JSON.stringify(sets[i])} answered 200, yet the key ends with ${JSON.stringify(final)}`);
        } else if (answer.status !== 422) {
          violations.push(`round ${round}: PATCH ${JSON.stringify(sets[i])} answered ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      });
    }
    expect(violations).toEqual([]);
    // Each round acknowledges at least one PATCH: the first to write always holds what it asks.
    expect(acknowledged).toBeGreaterThanOrEqual(30);
  }, 120_000);

  it('rotations of one webhook\'s secret at once keep every secret they answered: the newest signs, the one before it is the previous (20 rounds)', async () => {
    const { call } = await adminWorld(server);
    const lost: string[] = [];
    for (let round = 0; round < 20; round++) {
      const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
      const answers = await Promise.all([0, 1].map(() => call({ method: 'POST', path: `/webhooks/${id}/rotate-secret`, body: { grace_period_seconds: 3600 } })));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const answered = answers.map((a) => (a.body as { data: { secret: string } }).data.secret);
      const [row] = await rowsOf<{ secret: string; previous_secret: string | null }>(server.store, 'SELECT secret, previous_secret FROM webhooks WHERE id = ?', [id]);
      if (![row!.secret, row!.previous_secret].every((s) => s !== null && answered.includes(s))) {
        lost.push(`round ${round}: answered ${answered.map((s) => s.slice(-6)).join(' and ')}, the webhook holds ${row!.secret.slice(-6)} and ${row!.previous_secret?.slice(-6)}`);
      }
    }
    expect(lost).toEqual([]);
  }, 120_000);
});
