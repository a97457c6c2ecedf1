import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

describe('HTTP server settings', () => {
  it('when nothing is set, uses the documented defaults', () => {
    expect(loadConfig({}).http).toMatchObject({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 10_000 });
  });

  it('when set, reads each variable', () => {
    const env = { HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: '4000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000', HTTP_MAX_CONNECTIONS: '50' };
    expect(loadConfig(env).http).toMatchObject({ headersTimeoutMs: 2_000, requestTimeoutMs: 4_000, keepAliveTimeoutMs: 1_000, maxConnections: 50 });
  });

  it('when a value would switch a protection off or is not a number, refuses to start, naming the variable', () => {
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS: '0' })).toThrow('HTTP_MAX_CONNECTIONS must be at least 1, got "0"');
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '0' })).toThrow('HTTP_HEADERS_TIMEOUT_MS must be at least 1');
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '5s' })).toThrow('HTTP_KEEP_ALIVE_TIMEOUT_MS must be a non-negative integer in decimal digits, got "5s"');
  });

  it('when the headers timeout is longer than the request timeout, refuses to start', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow('HTTP_HEADERS_TIMEOUT_MS (40000) must not exceed HTTP_REQUEST_TIMEOUT_MS (30000)');
  });
});
