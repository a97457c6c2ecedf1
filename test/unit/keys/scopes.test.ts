import { describe, expect, it } from 'vitest';
import { ALL_SCOPES, normaliseScopes, parseStoredScopes, requiredScopesFor } from '../../../src/keys/scopes.js';

describe('requiredScopesFor', () => {
  it('asks for the one scope of each read prefix, as the seed maps them', () => {
    expect(requiredScopesFor('/workspace')).toEqual(['workspace:read']);
    expect(requiredScopesFor('/workspace/usage')).toEqual(['workspace:read']);
    expect(requiredScopesFor('/visibility/prompts/3f2b9c4e-8d1a-4b7e-9f00-2c6d5e4a1b90')).toEqual(['visibility:read']);
    expect(requiredScopesFor('/content-map/topics')).toEqual(['contentmap:read']);
    expect(requiredScopesFor('/content/articles')).toEqual(['content:read']);
    expect(requiredScopesFor('/iq/personas')).toEqual(['iq:read']);
  });

  it('asks for nothing on /me, and on unknown prefixes (which end as 404)', () => {
    expect(requiredScopesFor('/me')).toEqual([]);
    expect(requiredScopesFor('/nothing-here')).toEqual([]);
    expect(requiredScopesFor('/')).toEqual([]);
  });

  it('matches whole segments only: /contents is not /content, /content-map is not /content', () => {
    expect(requiredScopesFor('/contents')).toEqual([]);
    expect(requiredScopesFor('/content-map')).toEqual(['contentmap:read']);
    expect(requiredScopesFor('/workspaces')).toEqual([]);
  });
});

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
