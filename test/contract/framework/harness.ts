import { expect } from 'vitest';
import { handlers as defaultHandlers } from '../../../src/http/read-handlers.js';
import { adminHandlers } from '../../../src/http/admin-handlers.js';
import type { AdminHandlers, ReadHandlers } from '../../../src/operations/handler-types.js';
import { SlidingLogLimiter } from '../../../src/http/rate-limit/sliding-log-limiter.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { connectSharedRateLimits } from '../../../src/http/rate-limit/shared-rate-limits.js';
import { freePort } from '../../support/free-port.js';
import pino from 'pino';
import { createTestWorkspace } from '../../support/accounts.js';
import type { RequestSpec, ScenarioContext } from '../scenarios/types.js';
import { send } from '../../support/http.js';
import { Contract, type ContractOperation, type ObservedResponse } from './spec.js';
import { expectFieldErrorsMatchMessages } from './field-errors.js';

/** What the failing handlers throw: it looks like the internals a 500 must never show. */
export const INTERNAL_CAUSE = 'SQLITE_ERROR: no such column: contract_probe_column (at /srv/app/src/store/probe.ts:42)';

export const WORKSPACE_QUOTA = 120;
export const WINDOW_SECONDS = 60;

/**
 * Three apps over one SQLite file: the real one; one whose every handler throws, which is how a
 * 500 is produced on demand (createApp takes the handler map as a dependency); and one whose rate
 * limits are kept in a Redis that does not answer (nothing listens on its port), which is how the
 * 503 of an unavailable limit is produced. The per-workspace limiter is held here so a 429 can be
 * reached by filling a workspace's window directly.
 */
export interface Harness {
  contract: Contract;
  server: TestServer;
  failing: TestServer;
  unavailable: TestServer;
  limiter: SlidingLogLimiter;
  context: () => Promise<ScenarioContext>;
  /**
   * Sends and asserts the response is exactly what the contract documents for its status; a 422
   * must also list in `data.errors` each input its `messages` names.
   */
  call: (op: ContractOperation, spec: RequestSpec, ctx: ScenarioContext, via?: TestServer) => Promise<ObservedResponse>;
  close: () => Promise<void>;
}

export async function startHarness(contract: Contract = new Contract()): Promise<Harness> {
  const limiter = new SlidingLogLimiter({ policy: 'workspace', quota: WORKSPACE_QUOTA, windowSeconds: WINDOW_SECONDS });
  const server = await startTestServer({ limiter });
  const throwing = Object.fromEntries(
    Object.keys(defaultHandlers).map((id) => [id, () => { throw new Error(INTERNAL_CAUSE); }]),
  ) as unknown as ReadHandlers;
  const throwingAdmin = Object.fromEntries(
    Object.keys(adminHandlers).map((id) => [id, () => { throw new Error(INTERNAL_CAUSE); }]),
  ) as unknown as AdminHandlers;
  const failing = await startTestServer({ store: server.store, handlers: throwing, adminHandlers: throwingAdmin });
  const awayRedis = connectSharedRateLimits(
    { url: `redis://127.0.0.1:${await freePort()}`, keyPrefix: 'contract:', commandTimeoutMs: 250 },
    { quota: WORKSPACE_QUOTA, windowSeconds: WINDOW_SECONDS, authFailureQuota: 30 },
    pino({ level: 'silent' }),
  );
  const unavailable = await startTestServer({ store: server.store, limiter: awayRedis.limiter, clientLimiter: awayRedis.clientLimiter });

  const context = async (): Promise<ScenarioContext> => ({
    server,
    store: server.store,
    workspace: await createTestWorkspace(server.store),
    other: await createTestWorkspace(server.store),
    now: new Date(),
  });

  const call: Harness['call'] = async (op, spec, ctx, via = server) => {
    const response = await send(via.url, spec, ctx.workspace.key);
    expect(contract.violations(op, response, spec.method ?? 'GET'), `${spec.method ?? 'GET'} ${spec.path} → ${response.status} ${response.text.slice(0, 500)}`)
      .toEqual([]);
    if (response.status === 422 && spec.method !== 'HEAD') expectFieldErrorsMatchMessages(response);
    return response;
  };

  return {
    contract,
    server,
    failing,
    unavailable,
    limiter,
    context,
    call,
    close: async () => {
      await unavailable.close();
      await awayRedis.close();
      await failing.close();
      await server.close();
    },
  };
}
