import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

describe('CORS_ALLOWED_ORIGINS and PUBLIC_BASE_URL', () => {
  it('are off by default: no origin allowed, the request\'s own host named', () => {
    expect(loadConfig({}).http).toMatchObject({ corsAllowedOrigins: [], publicBaseUrl: undefined });
  });

  it('reads a comma-separated list of exact origins', () => {
    expect(loadConfig({ CORS_ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:5173' }).http.corsAllowedOrigins)
      .toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it.each(['*', 'https://app.example.com/', 'https://app.example.com/dashboard', 'app.example.com', 'ftp://files.example.com'])(
    'refuses %s, which is not an origin a browser sends',
    (origin) => {
      expect(() => loadConfig({ CORS_ALLOWED_ORIGINS: origin })).toThrow(/CORS_ALLOWED_ORIGINS must list origins like https:\/\/app\.example\.com/);
    },
  );

  it('reads PUBLIC_BASE_URL without a trailing slash, and refuses what is not an http(s) URL', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/' }).http.publicBaseUrl).toBe('https://api.example.com');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://example.com/workspace-api/' }).http.publicBaseUrl).toBe('https://example.com/workspace-api');
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'api.example.com' })).toThrow(/PUBLIC_BASE_URL must be an http\(s\) URL/);
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/?x=1' })).toThrow(/PUBLIC_BASE_URL must be an http\(s\) URL/);
  });
});
