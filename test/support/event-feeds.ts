import { expect } from 'vitest';
import { send, type ObservedResponse } from './http.js';

/** The path of each event feed of the read API. */
export const FEED_PATHS = {
  content: '/api/v1/content/events',
  'content-map': '/api/v1/content-map/events',
  iq: '/api/v1/iq/events',
} as const;

/** An event as a feed lists it (and as its webhook delivery carries it). */
export interface FeedEvent {
  event: string;
  timestamp: string;
  workspace_id: string;
  is_test: boolean;
  data: Record<string, unknown> & { id: string };
}

export interface FeedPage {
  items: FeedEvent[];
  next_cursor: string;
  has_more: boolean;
}

/** One request to a feed with `key`; fails unless it answers 200. */
export async function readFeed(url: string, key: string, path: string, query: Record<string, string | number> = {}): Promise<FeedPage> {
  const res: ObservedResponse = await send(url, { path, query }, key);
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return (res.body as { data: FeedPage }).data;
}

/**
 * What a client does on each run: reads from `cursor` while `has_more` is true, and returns what
 * it read with the cursor to keep for the next run.
 */
export async function catchUp(
  url: string,
  key: string,
  path: string,
  from: { cursor?: string | undefined; limit?: number; event_type?: string },
): Promise<{ events: FeedEvent[]; cursor: string }> {
  const events: FeedEvent[] = [];
  let cursor = from.cursor;
  for (let pages = 0; ; pages += 1) {
    expect(pages, 'the feed keeps promising more').toBeLessThan(10_000);
    const query: Record<string, string | number> = { limit: from.limit ?? 25 };
    if (cursor !== undefined) query.cursor = cursor;
    if (from.event_type !== undefined) query.event_type = from.event_type;
    const page = await readFeed(url, key, path, query);
    events.push(...page.items);
    expect(page.next_cursor).toEqual(expect.any(String));
    cursor = page.next_cursor;
    if (!page.has_more) return { events, cursor };
  }
}

/** A 422 (4220) whose message names the query parameter `name`. */
export function expectInvalidQuery(res: ObservedResponse, name: string): void {
  expect([res.status, (res.body as { code: number }).code, (res.body as { messages: string }).messages])
    .toEqual([422, 4220, expect.stringContaining(`query.${name}`)]);
}

/** A 403 (4023) naming `scope` as required and missing. */
export function expectScopeMissing(res: ObservedResponse, scope: string): void {
  expect([res.status, (res.body as { code: number }).code, (res.body as { data: unknown }).data])
    .toEqual([403, 4023, { required: [scope], missing: [scope] }]);
}
