import { describe, expect, it } from 'vitest';
import { ALL_SCOPES, normaliseScopes, parseStoredScopes } from '../../../src/keys/scopes.js';

describe('scope sets', () => {
  it('normalises to the canonical order without duplicates', () => {
    expect(normaliseScopes(['iq:read', 'workspace:read', 'iq:read'])).toEqual(['workspace:read', 'iq:read']);
  });

  it('parses the stored form, an empty set included, ignoring words that are not scopes', () => {
    expect(parseStoredScopes('')).toEqual([]);
    expect(parseStoredScopes(ALL_SCOPES.join(' '))).toEqual([...ALL_SCOPES]);
    expect(parseStoredScopes('visibility:read admin:write')).toEqual(['visibility:read']);
  });
});
