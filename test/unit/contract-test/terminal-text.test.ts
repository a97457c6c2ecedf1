import { describe, expect, it } from 'vitest';
import { escapeControls, escapedStrings, jsonLine, quoted } from '@workspace-read-api/contract-test/terminal-text.js';

const hostile = '\u001b]52;c;cm0=\u0007\u001b[2K\r\n\t\u007f\u009b2K\u0085\u061c\u200e\u2028\u2029\u202e\u2066x';

describe('text another party chose, as the checker prints it', () => {
  it('escapes every control character a terminal acts on: C0, DEL, C1, separators, bidi controls', () => {
    expect(escapeControls(hostile)).toBe('\\u001b]52;c;cm0=\\u0007\\u001b[2K\\r\\n\\t\\u007f\\u009b2K\\u0085\\u061c\\u200e\\u2028\\u2029\\u202e\\u2066x');
    expect(escapeControls('plain text, é, ✓ and →')).toBe('plain text, é, ✓ and →');
  });

  it('quotes a string as JSON does, then escapes what JSON leaves raw', () => {
    expect(quoted('a "b" \\ c\u009b')).toBe('"a \\"b\\" \\\\ c\\u009b"');
  });

  it('prints JSON that parses back to the same value', () => {
    const value = { [hostile]: [hostile, 1, null] };
    const line = jsonLine(value);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
    expect(JSON.parse(line)).toEqual(value);
  });

  it('keeps the lines a caller composed, when asked to', () => {
    expect(escapeControls('one\ntwo\r', { keepNewlines: true })).toBe('one\ntwo\\r');
  });

  it('escapes every string of a report, keys included', () => {
    expect(escapedStrings({ a: ['x\u001b'], ['k\r']: 2, n: null })).toEqual({ a: ['x\\u001b'], 'k\\r': 2, n: null });
  });
});
