import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../../src/analytics/prompt-analytics.js';

describe('compareCodePoints', () => {
  it('orders by code point, not by UTF-16 unit', () => {
    // U+1F600 (a surrogate pair starting 0xD83D) sorts after U+FF21 by code point, before it by UTF-16 unit.
    const names = ['\u{1F600}rbit', '\uFF21cme', 'acme', 'Acme', 'Zeta'];
    expect([...names].sort(compareCodePoints)).toEqual(['Acme', 'Zeta', 'acme', '\uFF21cme', '\u{1F600}rbit']);
  });

  it('puts a prefix before the longer string', () => {
    expect(compareCodePoints('Acme', 'Acme Corp')).toBeLessThan(0);
    expect(compareCodePoints('Acme', 'Acme')).toBe(0);
  });
});
