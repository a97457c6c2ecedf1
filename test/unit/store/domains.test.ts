import { describe, expect, it } from 'vitest';
import { hostOf, isOwnHost, normaliseDomain } from '../../../src/store/domains.js';

describe('own domains', () => {
  it('when a host is a domain, a www. form or a subdomain of one, counts it as own', () => {
    const domains = ['acme.example'];
    expect(['acme.example', 'www.acme.example', 'docs.acme.example', 'ACME.example'].map((h) => isOwnHost(h, domains))).toEqual([true, true, true, true]);
    expect(['notacme.example', 'acme.example.evil', 'example'].map((h) => isOwnHost(h, domains))).toEqual([false, false, false]);
  });

  it('when a domain is written with www., upper case or a final dot, normalises it', () => {
    expect(normaliseDomain('WWW.Acme.Example.')).toBe('acme.example');
  });

  it('when a URL is not a URL, has no host', () => {
    expect([hostOf('https://Docs.Acme.Example:8443/x'), hostOf('not a url')]).toEqual(['docs.acme.example', '']);
  });
});
