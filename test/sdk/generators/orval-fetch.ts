// The custom fetch orval's documentation has a client team write (orval.config.ts names it): the
// base URL and the API key, set once by the program, and each body read by its media type.
let settings = { baseUrl: '', apiKey: '' };

export function configure(next: { baseUrl: string; apiKey: string }): void {
  settings = next;
}

export async function customFetch<T>(url: string, options: RequestInit): Promise<T> {
  const res = await fetch(`${settings.baseUrl}${url}`, {
    ...options,
    headers: { ...(options.headers as Record<string, string> | undefined), Authorization: `Bearer ${settings.apiKey}` },
  });
  const type = res.headers.get('content-type') ?? '';
  // orval types an NDJSON answer as the Response itself (`stream`), every other one as `data`.
  if (type.startsWith('application/x-ndjson')) return { status: res.status, stream: res, headers: res.headers } as T;
  const text = [204, 205, 304].includes(res.status) ? '' : await res.text();
  const data: unknown = type.startsWith('application/json') && text !== '' ? JSON.parse(text) : text;
  return { status: res.status, data, headers: res.headers } as T;
}
