/**
 * Every page of a keyset list read through a store, `limit` rows at a time, each page read after
 * the previous page's last row (`positionOf`), until a page comes back short: what a client paging
 * through the list reads, page boundaries included.
 */
export async function everyPage<Row, Position>(
  read: (limit: number, after: Position | undefined) => Promise<Row[]>,
  positionOf: (row: Row) => Position,
  limit: number,
): Promise<Row[][]> {
  const pages: Row[][] = [];
  let after: Position | undefined;
  for (;;) {
    const page = await read(limit, after);
    pages.push(page);
    if (page.length < limit) return pages;
    after = positionOf(page[page.length - 1]!);
  }
}
