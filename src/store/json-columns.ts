// JSON kept in text columns (both databases store it as text, so a read gives back the bytes the
// import wrote): how a value goes in and comes back out.

/** A JSON column read back; the import wrote it, so it parses. */
export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

export function fromNullableJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

export function toNullableJson(value: unknown): string | null {
  return value === null ? null : JSON.stringify(value);
}
