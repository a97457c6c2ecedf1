import type { AdminApi } from '../admin-api.js';
import { html, type Html } from '../html.js';

export interface ListPage<T> {
  items: T[];
  next_cursor: string | null;
}

/** Pages a console list shows at most: beyond them, the list says where to look (the API). */
const MAX_PAGES = 20;

/** Every item of a paged administration list, following `next_cursor` (the API's largest page each time). */
export async function everyItem<T>(api: AdminApi, path: string, query: Record<string, string | undefined> = {}): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i += 1) {
    const { data } = await api.call<ListPage<T>>('GET', path, { query: { ...query, limit: '100', cursor } });
    items.push(...data.items);
    if (data.next_cursor === null) break;
    cursor = data.next_cursor;
  }
  return items;
}

/** The link to a list's next page, keeping the page's filters; nothing on the last page. */
export function nextPageLink(base: string, query: Record<string, string | undefined>, nextCursor: string | null): Html {
  if (nextCursor === null) return html``;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, value);
  params.set('cursor', nextCursor);
  return html`<p class="pager"><a href="${`${base}?${params.toString()}`}">Next page</a></p>`;
}

/** A user's name where the member list knows it; the id otherwise (a former member). */
export function nameOf(members: ReadonlyArray<{ user_id: string; name: string }>, userId: string): string {
  return members.find((m) => m.user_id === userId)?.name ?? userId;
}
