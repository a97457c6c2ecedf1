// walks-operations: asks every operation of the contract (test/scaffold/ runs it after adding an endpoint)
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { importLines } from '../../src/import/import-ndjson.js';
import { createApiKey } from '../../src/keys/api-keys.js';
import { createMemberToken } from '../../src/keys/member-tokens.js';
import { openStore, type Store } from '../../src/store/index.js';
import { send, type ObservedResponse } from '../support/http.js';
import { demoScenario, importScenarios, scenarioId, type ImportScenario } from '../support/import-scenarios.js';
import { createMigratedPostgresDatabase, dropPostgresDatabase, postgresAvailable } from '../support/postgres.js';
import { createSqliteTestStore, NO_RATE_LIMIT, startTestServer, type TestServer } from '../support/test-server.js';
import { everyReadRoute, queryValues, routesNotCompared, routesOf, type ReadDocument, type ReadRoute } from './every-read-routes.js';

// Every GET operation of the contract (generated/openapi.json), with every query variant it
// documents, asked of a server over SQLite and a server over PostgreSQL that imported the same
// files: the answers must be the same bytes. Only what each server draws at random differs (its
// keys' ids and display prefixes, its member tokens' ids) and when its import ran (an event's
// `timestamp`, taken from the system clock as the import writes it), replaced by names before
// comparing; both servers share one fixed clock, the one the demo data ends on.
const NOW = new Date('2026-11-22T12:00:00.000Z');
// Small pages for each list as it comes and in each order, so that it is read over many of them
// and every cursor is compared too; the filtered variants are paged through in larger ones.
const PAGE = 4;
const CURSOR_SECRET = 'one-cursor-secret-for-both-sides-of-the-comparison';
const FILTERED_PAGE = 25;
// Answers by id, pages by id...: enough of each (first, last and spread between) to cover the kinds.
const DETAILS_PER_LIST = 12;

const spec = loadOpenApiDocument() as ReadDocument;
const { routes: everyRoute, gaps } = everyReadRoute(spec);
// WSAPI_EVERY_READ_OPERATIONS (operationIds, comma-separated) narrows the comparison to those GETs
// and the lists their ids come from: the scaffold's test (test/scaffold/) compares the endpoint it
// adds in its copy, every other GET being compared by this file's own run.
const only = (process.env.WSAPI_EVERY_READ_OPERATIONS ?? '').split(',').filter(Boolean);
const routes = only.length === 0 ? everyRoute : routesOf(everyRoute, only);
const which = only.length === 0 ? 'every GET of the contract' : `GET ${only.join(', ')} and the lists it takes ids from`;

/** Every `id` and `*_id` value anywhere in a JSON answer, by field name: the filters' values. */
function collectIds(value: unknown, into: Map<string, Set<string>>, field = ''): void {
  if (Array.isArray(value)) for (const item of value) collectIds(item, into, field);
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) collectIds(v, into, k);
  else if (typeof value === 'string' && (field === 'id' || field.endsWith('_id'))) {
    if (!into.has(field)) into.set(field, new Set());
    into.get(field)!.add(value);
  }
}

interface Side {
  store: Store;
  server: TestServer;
  /** What this server drew at random, and the name it is compared under. */
  randomValues: Array<[string, string]>;
  keys: Map<string, string>;
  tokens: Map<string, string>;
}

async function openSide(store: Store, workspaces: Array<{ id: string; scenario: ImportScenario }>): Promise<Side> {
  const randomValues: Array<[string, string]> = [];
  const keys = new Map<string, string>();
  const tokens = new Map<string, string>();
  for (const [n, { id, scenario }] of workspaces.entries()) {
    const ownerId = scenarioId(`every-read:owner:${n}`);
    await store.accounts.insertWorkspace({ id, name: `Workspace ${n}`, subscription_status: 'active', created_at: NOW.toISOString() });
    await store.accounts.insertUser({ id: ownerId, email: `owner-${n}@example.test`, name: `Owner ${n}`, created_at: NOW.toISOString() });
    await store.accounts.upsertMembership(id, ownerId, 'owner', NOW.toISOString());
    const key = await createApiKey(store, { workspaceId: id, userId: ownerId, name: 'Every scope' }, NOW);
    const token = await createMemberToken(store, { workspaceId: id, userId: ownerId, name: 'Owner token' }, NOW);
    keys.set(id, key.key);
    tokens.set(id, token.token);
    randomValues.push([key.id, `<key ${n}>`], [key.prefix, `<key prefix ${n}>`], [token.id, `<token ${n}>`]);
    for (const step of scenario.steps) {
      if (step.workspace !== 'a') continue;
      await importLines(store, id, step.lines, { events: step.events, now: () => NOW });
    }
  }
  // One cursor secret for both sides, as instances of one service share it, so their cursors are the same bytes.
  const server = await startTestServer({ store, now: () => NOW, cursorSecret: CURSOR_SECRET, rateLimit: NO_RATE_LIMIT });
  return { store, server, randomValues, keys, tokens };
}

function normalised(side: Side, response: ObservedResponse): string {
  let text = response.text.replaceAll(side.server.url, '<server>').replace(/"timestamp":"[^"]+"/g, '"timestamp":"<import time>"');
  for (const [value, name] of side.randomValues) text = text.replaceAll(value, name);
  return `${response.status} ${response.headers.get('content-type')}\n${text}`;
}

describe('every read operation of the contract, as the both-stores test asks it', () => {
  it('has a way to fill in every path parameter of every GET (or names the file that compares it)', () => {
    expect(gaps).toEqual([]);
  });
});

const firstStepOf = (scenario: ImportScenario): ImportScenario => ({ ...scenario, steps: scenario.steps.slice(0, 1) });

/** A few of many values (first, last and spread between); all of them when few. */
function spread<T>(values: T[]): T[] {
  const step = Math.max(1, Math.ceil(values.length / DETAILS_PER_LIST));
  return values.filter((_, i) => i % step === 0 || i === values.length - 1);
}

/** The concrete paths of a route in a workspace: each path parameter filled from its source. */
function concretePaths(route: ReadRoute, workspaceId: string, idsOfList: Map<string, string[]>): string[] {
  let paths = [route.path];
  for (const source of route.pathValues) {
    const slot = `{${source.name}}`;
    paths = paths.flatMap((path) => {
      if (source.from === 'workspace') return [path.replace(slot, workspaceId)];
      // An enum's first, middle and last values: the route's SQL is the same for each.
      const values = source.from === 'enum'
        ? [...new Set([source.values[0]!, source.values[Math.floor(source.values.length / 2)]!, source.values.at(-1)!])]
        : spread(idsOfList.get(path.slice(0, path.indexOf(`/${slot}`))) ?? []);
      return values.map((value) => path.replace(slot, value));
    });
  }
  return paths;
}

describe.skipIf(!postgresAvailable())('every read operation on SQLite and on PostgreSQL', () => {
  it(`answers the same bytes for ${which}, every query variant, every page and every id`, async () => {
    const workspaces = [
      // The demo's file once: the scenario imports it a second time, unchanged, which import-parity.test.ts compares.
      { id: scenarioId('every-read:demo'), scenario: firstStepOf(demoScenario({ prompts: 5, days: 10, answersPerDay: 1 })) },
      { id: scenarioId('every-read:every-type'), scenario: importScenarios()[0]! },
    ];
    const sqliteStore = createSqliteTestStore();
    onTestFinished(() => sqliteStore.cleanup());
    const url = await createMigratedPostgresDatabase('wsapi_every_read');
    const postgresStore = await openStore(url);
    onTestFinished(async () => {
      await postgresStore.close();
      await dropPostgresDatabase(url);
    });
    const sides = [await openSide(sqliteStore.store, workspaces), await openSide(postgresStore, workspaces)] as const;
    for (const side of sides) onTestFinished(() => side.server.close());

    const seenIds = new Map<string, Set<string>>();
    const compared: string[] = [];
    /** One request on both servers, in the same order; both answers must match. Returns SQLite's, and PostgreSQL's. */
    const both = async (workspaceId: string, path: string, query: Record<string, string>, member: boolean) => {
      const answers: ObservedResponse[] = [];
      for (const side of sides) {
        const credential = member ? { headers: { authorization: `Bearer ${side.tokens.get(workspaceId)!}` }, key: null } : { key: side.keys.get(workspaceId)! };
        answers.push(await send(side.server.url, { path, query, ...credential }));
      }
      const label = `${path}?${new URLSearchParams(query).toString()}`;
      expect(normalised(sides[1], answers[1]!), label).toBe(normalised(sides[0], answers[0]!));
      expect(answers[0]!.status, `${label}: ${answers[0]!.text.slice(0, 300)}`).toBe(200);
      collectIds(answers[0]!.body, seenIds);
      compared.push(label);
      return answers as [ObservedResponse, ObservedResponse];
    };
    /** Every page of a list or feed, each side following its own cursor; the ids of its items. */
    const allPages = async (workspaceId: string, path: string, query: Record<string, string>, member: boolean, cursorOf: (body: unknown) => string | null) => {
      const ids: string[] = [];
      let cursors: [string | null, string | null] = [null, null];
      for (let page = 0; page < 1_000; page += 1) {
        const answers: ObservedResponse[] = [];
        for (const [i, side] of sides.entries()) {
          const q = cursors[i] === null ? query : { ...query, cursor: cursors[i]! };
          const credential = member ? { headers: { authorization: `Bearer ${side.tokens.get(workspaceId)!}` }, key: null } : { key: side.keys.get(workspaceId)! };
          answers.push(await send(side.server.url, { path, query: q, ...credential }));
        }
        const label = `${path}?${new URLSearchParams(query).toString()} page ${page + 1}`;
        expect(normalised(sides[1], answers[1]!), label).toBe(normalised(sides[0], answers[0]!));
        expect(answers[0]!.status, `${label}: ${answers[0]!.text.slice(0, 300)}`).toBe(200);
        collectIds(answers[0]!.body, seenIds);
        compared.push(label);
        const items = (answers[0]!.body as { data: { items: Array<{ id?: string }> } }).data.items;
        ids.push(...items.flatMap((item) => (item.id === undefined ? [] : [item.id])));
        cursors = [cursorOf(answers[0]!.body), cursorOf(answers[1]!.body)];
        if (cursors[0] === null) return ids;
      }
      throw new Error(`${path}: the pages never end`);
    };

    const idsOfList = new Map<string, string[]>();
    const askedRoutes = new Set<string>();

    for (const { id: workspaceId } of workspaces) {
      for (const route of routes) {
        const { member, paged, feed } = route;
        // A read by id takes the ids its list gave in this workspace (none when the list is empty).
        const concrete = concretePaths(route, workspaceId, idsOfList);
        if (concrete.length > 0) askedRoutes.add(route.path);
        const variants: Array<Record<string, string>> = [{}];
        for (const p of route.query) for (const value of queryValues(spec, p, seenIds)) variants.push({ [p.name]: value });
        // Two parameters together, where a list filters and orders at once.
        if (route.query.some((p) => p.name === 'order') && route.query.some((p) => p.name === 'updated_after')) {
          variants.push({ order: 'updated_at', updated_after: '2026-11-15T00:00:00.000Z' });
        }
        for (const target of concrete) {
          for (const variant of variants) {
            if (!paged) {
              await both(workspaceId, target, variant, member);
              continue;
            }
            const cursorOf = feed
              ? (body: unknown) => ((body as { data: { has_more: boolean; next_cursor: string } }).data.has_more ? (body as { data: { next_cursor: string } }).data.next_cursor : null)
              : (body: unknown) => (body as { data: { next_cursor: string | null } }).data.next_cursor;
            const small = Object.keys(variant).every((name) => name === 'order');
            const ids = await allPages(workspaceId, target, { ...variant, limit: String(small ? PAGE : FILTERED_PAGE) }, member, cursorOf);
            if (Object.keys(variant).length === 0) {
              idsOfList.set(target, ids);
              // The default page size too: one answer of up to 25 items, the same as the small pages'.
              await both(workspaceId, target, {}, member);
            }
          }
        }
      }
    }

    // Every route asked was compared (none left out because its list was empty); over the whole
    // contract, the lists over several pages, and the exports.
    expect(routesNotCompared(routes, askedRoutes)).toEqual([]);
    if (only.length === 0) {
      expect(compared.filter((label) => label.includes('/visibility/answers?') && label.includes('page 3')).length).toBeGreaterThan(0);
      expect(compared.filter((label) => label.includes('format=csv')).length).toBe(2 * 2);
    }
  }, 600_000);
});
