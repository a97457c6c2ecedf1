import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

describe('HTTP server settings', () => {
  it('when nothing is set, uses the documented defaults', () => {
    expect(loadConfig({}).http).toMatchObject({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 10_000, drainDelayMs: 0 });
  });

  it('when set, reads each variable', () => {
    const env = { HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: '4000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000', HTTP_MAX_CONNECTIONS: '50', DRAIN_DELAY_MS: '15000' };
    expect(loadConfig(env).http).toMatchObject({ headersTimeoutMs: 2_000, requestTimeoutMs: 4_000, keepAliveTimeoutMs: 1_000, maxConnections: 50, drainDelayMs: 15_000 });
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

describe('TRUST_PROXY', () => {
  it('is off unless set, and reads a hop count, names, addresses and CIDRs as Express takes them', () => {
    expect(loadConfig({}).http.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).http.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).http.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).http.trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8 ,192.0.2.1,172.16.0.0/255.240.0.0' }).http.trustProxy)
      .toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.1', '172.16.0.0/255.240.0.0']);
  });

  it('refuses true (anyone could choose their address) and anything that is not an address, naming it', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow('TRUST_PROXY=true would believe forwarded headers from anyone');
    expect(() => loadConfig({ TRUST_PROXY: 'loopback,proxy.internal' })).toThrow('"proxy.internal" is none of these');
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow('"10.0.0.0/33" is none of these');
    expect(() => loadConfig({ TRUST_PROXY: '1.5' })).toThrow('"1.5" is none of these');
    expect(() => loadConfig({ TRUST_PROXY: '99999999999999999999' })).toThrow('TRUST_PROXY must be a number of proxies in decimal digits, got "99999999999999999999"');
  });
});
