import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

describe('AUDIT_LOG_RETENTION_DAYS', () => {
  it('is 400 days unless set, reads a whole number of days, and refuses 0 or anything not digits, naming it', () => {
    const days = (value?: string) => loadConfig(value === undefined ? {} : { AUDIT_LOG_RETENTION_DAYS: value }).auditLogRetentionDays;
    expect(days()).toBe(400);
    expect(days('')).toBe(400);
    expect(days('30')).toBe(30);
    for (const bad of ['0', '-1', '1e3', 'forever']) expect(() => days(bad)).toThrow(/AUDIT_LOG_RETENTION_DAYS/);
  });
});
