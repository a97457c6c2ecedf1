/**
 * The last 200 of each GET with its `ETag`, for conditional reads: a repeated GET sends
 * `If-None-Match`, and a 304 is answered from the kept copy. Least recently used entries go first,
 * so memory stays bounded by `maxEntries` however many URLs a program reads.
 */
export class EtagCache {
  private readonly entries = new Map<string, { etag: string; text: string }>();

  constructor(readonly maxEntries: number) {}

  get(url: string): { etag: string; text: string } | undefined {
    const entry = this.entries.get(url);
    if (entry) {
      this.entries.delete(url);
      this.entries.set(url, entry);
    }
    return entry;
  }

  set(url: string, etag: string, text: string): void {
    this.entries.delete(url);
    this.entries.set(url, { etag, text });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
