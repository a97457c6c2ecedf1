import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

describe('WEBHOOK_ALLOW_PRIVATE', () => {
  it('is off unless set, reads the usual words for on and off in any case, and refuses anything else, naming it', () => {
    const allowPrivate = (value?: string) => loadConfig(value === undefined ? {} : { WEBHOOK_ALLOW_PRIVATE: value }).webhooks.allowPrivate;
    expect(allowPrivate()).toBe(false);
    expect(['1', 'true', 'YES', 'on'].map(allowPrivate)).toEqual([true, true, true, true]);
    expect(['0', 'False', 'no', 'OFF'].map(allowPrivate)).toEqual([false, false, false, false]);
    expect(() => allowPrivate('maybe')).toThrow('WEBHOOK_ALLOW_PRIVATE must be true or false, got "maybe"');
  });
});
