/**
 * Text a server or a webhook sender chose (property names, header values, messages, event names,
 * a published version) reaches the reader's terminal only through here. A terminal acts on control
 * characters instead of showing them: ESC starts sequences that write the clipboard (OSC 52) or
 * erase a line, a carriage return or a line separator lets foreign text overwrite or pose as the
 * checker's own lines (a forged failure with a `curl` line that runs a command when pasted), and
 * bidi controls reorder what the reader sees.
 */

/** C0 (newline included), DEL, C1, the Arabic letter mark, LRM/RLM, line and paragraph separators, bidi embeddings, overrides and isolates. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Every control character as a JSON escape (`\n`, `\u001b`), so a text holds one visible line
 * (`keepNewlines`: lines the caller composed from texts already escaped, as the JUnit file's are).
 * Applied to a JSON text it leaves a JSON text with the same value: JSON.stringify already escapes
 * C0, and `\uXXXX` is how JSON writes any other character.
 */
export function escapeControls(text: string, { keepNewlines = false } = {}): string {
  return text.replace(CONTROLS, (c) => (keepNewlines && c === '\n' ? c : SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** A string someone else chose, as the report shows it: in double quotes, JSON-escaped, every control character escaped. */
export function quoted(text: string): string {
  return escapeControls(JSON.stringify(text));
}

/** A value printed as one JSON line: the same value, with nothing in it a terminal acts on. */
export function jsonLine(value: unknown): string {
  return escapeControls(JSON.stringify(value));
}

/** A copy of a report with every string in it (keys too) escaped, for renderers that compose lines from its fields. */
export function escapedStrings<T>(value: T): T {
  if (typeof value === 'string') return escapeControls(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => escapedStrings(v)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeControls(k), escapedStrings(v)])) as T;
  }
  return value;
}
