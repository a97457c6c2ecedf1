import { expect } from 'vitest';
import type { TestServer } from './test-server.js';
import type { TestWorkspace } from './accounts.js';
import { send } from './http.js';
import { getWith } from './visibility.js';
import { expectStablePaging } from '../contract/framework/paging.js';

/** The ids a list answers on one page of up to 100, in the order served. */
export async function listedIds(server: TestServer, workspace: TestWorkspace, path: string, query: Record<string, string | number> = {}): Promise<string[]> {
  const res = await getWith(server, workspace, path, { limit: 100, ...query });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { items: Array<{ id: string }> } }).data.items.map((i) => i.id);
}

/** Pages `path` of `workspace` with limit 1, 2 and 3 (each id once, one order) and refuses tampered cursors and those of `other`. */
export async function expectListPagesStably(server: TestServer, path: string, workspace: TestWorkspace, other: TestWorkspace, ids: string[]): Promise<void> {
  await expectStablePaging({
    call: (spec) => send(server.url, spec, workspace.key),
    request: { path },
    ids,
    foreign: { path, key: other.key },
  });
}

/** Each id (of another workspace, or unknown) read under `path` answers 404 with `What not found.`. */
export async function expectNotFound(server: TestServer, workspace: TestWorkspace, path: string, ids: string[], what: string): Promise<void> {
  for (const id of ids) {
    const res = await getWith(server, workspace, `${path}/${id}`);
    expect([res.status, res.body]).toEqual([404, { code: 4040, messages: `${what} not found.`, data: null }]);
  }
}
