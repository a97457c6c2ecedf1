import type { Store } from '../../../src/store/index.js';
import type { TestServer } from '../../support/test-server.js';
import type { TestWorkspace } from '../../support/accounts.js';
import type { ObservedResponse, RequestSpec } from '../../support/http.js';

export type { RequestSpec } from '../../support/http.js';

/** What a scenario gets: the running server and two fresh workspaces nobody else touches. */
export interface ScenarioContext {
  server: TestServer;
  store: Store;
  /** A fresh active workspace with an owner and an all-scopes key: the caller of every request. */
  workspace: TestWorkspace;
  /** A second fresh workspace, for ids that must not be reachable from `workspace`. */
  other: TestWorkspace;
  /** The time the context was made; the server runs on the real clock. */
  now: Date;
}

export type RequestBuilder = (ctx: ScenarioContext) => RequestSpec | Promise<RequestSpec>;

/** One way of obtaining a status, or several named ways (`{ 'range=1y': ..., 'malformed uuid': ... }`). */
type StatusCases = RequestBuilder | Record<string, RequestBuilder>;

interface ListScenario {
  /** Makes `n` items of this list in `workspace` and returns their ids (any order). */
  seed: (ctx: ScenarioContext, workspace: TestWorkspace, n: number) => string[] | Promise<string[]>;
  /**
   * The list request for `workspace`, without `limit`/`cursor` (the framework adds them). Default:
   * GET of the operation's path with that workspace's key (enough when the path has no parameters).
   */
  request?: (ctx: ScenarioContext, workspace: TestWorkspace) => RequestSpec;
  /** The identity of a listed item; default `item.id`. */
  itemId?: (item: unknown) => string;
}

/**
 * How one operation of the contract obtains each documented status with its own data.
 *
 * Under `/api/v1` the framework produces the generic statuses itself from the success request:
 * 401 (no key, bad key), 402 (past-due workspace), 403 (key without scopes), 405 (another method),
 * 422 (an unknown query parameter), 429 (exhausted limit) and 500 (a failing handler). An area
 * writes what is specific: the success status, 404 for an unknown id, 422 for bad values.
 */
export interface OperationScenario {
  operationId: string;
  /** Keyed by HTTP status. The success status is required; entries here run besides the generic ones. */
  statuses: Partial<Record<number, StatusCases>>;
  /** Checks beyond the contract for a status (exact data, the code), run on every case of that status. */
  expect?: Partial<Record<number, (response: ObservedResponse, ctx: ScenarioContext) => void | Promise<void>>>;
  /**
   * Required for an `/api/v1` operation whose path has a parameter: the request with ids of
   * `ctx.other` (seed them there), sent with `ctx.workspace`'s key. It must answer exactly like
   * `statuses[404]`.
   */
  crossTenant?: RequestBuilder;
  /** For list operations: lets the framework page through them (limit 1, 2, 3, tampered cursors). */
  list?: ListScenario;
}
