import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

describe('shared rate limit settings', () => {
  it('when nothing is set, counts in process, with the documented prefix and command timeout for when Redis is named', () => {
    expect(loadConfig({}).redis).toEqual({ url: undefined, keyPrefix: 'wsapi:ratelimit:', commandTimeoutMs: 250 });
  });

  it('when set, reads each variable', () => {
    const env = { REDIS_URL: 'rediss://:secret@cache.internal:6380/2', REDIS_KEY_PREFIX: 'eu1:', REDIS_COMMAND_TIMEOUT_MS: '100' };
    expect(loadConfig(env).redis).toEqual({ url: 'rediss://:secret@cache.internal:6380/2', keyPrefix: 'eu1:', commandTimeoutMs: 100 });
  });

  it('when REDIS_URL is not a Redis URL, refuses to start without repeating it (it may carry a password)', () => {
    for (const url of ['http://:hunter2@cache:6379', 'cache:6379', 'redis://', 'not a url :hunter2@']) {
      expect(() => loadConfig({ REDIS_URL: url })).toThrow('REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379/0');
      expect(() => loadConfig({ REDIS_URL: url })).not.toThrow('hunter2');
    }
  });

  it('when the command timeout would switch the bound off or is not a number, refuses to start, naming the variable', () => {
    expect(() => loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '0' })).toThrow('REDIS_COMMAND_TIMEOUT_MS must be at least 1, got "0"');
    expect(() => loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '1s' })).toThrow('REDIS_COMMAND_TIMEOUT_MS must be a non-negative integer');
  });
});

describe('PostgreSQL pool settings', () => {
  it('default to 10 connections, 10 s idle and 5 s to get a connection, and read each variable', () => {
    expect(loadConfig({}).databasePool).toEqual({ max: 10, idleTimeoutMs: 10_000, connectTimeoutMs: 5_000 });
    expect(loadConfig({ DATABASE_POOL_MAX: '25', DATABASE_POOL_IDLE_TIMEOUT_MS: '0', DATABASE_POOL_CONNECT_TIMEOUT_MS: '800' }).databasePool)
      .toEqual({ max: 25, idleTimeoutMs: 0, connectTimeoutMs: 800 });
  });

  it('refuse a pool of no connection or a value that is not decimal digits, naming the variable', () => {
    expect(() => loadConfig({ DATABASE_POOL_MAX: '0' })).toThrow('DATABASE_POOL_MAX must be at least 1, got "0"');
    expect(() => loadConfig({ DATABASE_POOL_CONNECT_TIMEOUT_MS: '5s' })).toThrow('DATABASE_POOL_CONNECT_TIMEOUT_MS must be a non-negative integer');
  });
});

describe('metrics settings', () => {
  it('are off unless METRICS_PORT is set, and listen on HOST unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({}).metrics).toEqual({ port: undefined, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '' }).metrics.port).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464', HOST: '0.0.0.0' }).metrics).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(loadConfig({ METRICS_PORT: '9464', HOST: '0.0.0.0', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({ port: 9464, host: '10.0.0.5' });
  });

  it('refuses a port that is not decimal digits, naming the variable', () => {
    expect(() => loadConfig({ METRICS_PORT: 'on' })).toThrow('METRICS_PORT must be a non-negative integer in decimal digits, got "on"');
  });
});

describe('CURSOR_SECRET', () => {
  it('is the secret cursors are signed with; unset, the database holds one', () => {
    expect(loadConfig({}).cursorSecret).toBeUndefined();
    expect(loadConfig({ CURSOR_SECRET: 'k'.repeat(32) }).cursorSecret).toBe('k'.repeat(32));
  });

  it('when shorter than 32 characters, refuses to start without repeating it', () => {
    expect(() => loadConfig({ CURSOR_SECRET: 'hunter2' })).toThrow('CURSOR_SECRET must be at least 32 characters long');
    expect(() => loadConfig({ CURSOR_SECRET: 'hunter2' })).not.toThrow('hunter2');
  });
});
