import { describe, expect, it } from 'vitest';
import { pageAddress } from '../../../src/store/page-address.js';

const PRICING = 'acme.example/pricing';

describe('pageAddress: how cited URLs are matched to content-map pages', () => {
  it('leaves out the scheme', () => {
    expect([pageAddress('https://acme.example/pricing'), pageAddress('http://acme.example/pricing')]).toEqual([PRICING, PRICING]);
  });

  it('leaves out a leading www. and a final dot of the host, and its case', () => {
    expect(['https://www.acme.example/pricing', 'https://ACME.Example/pricing', 'https://WWW.acme.example./pricing'].map(pageAddress))
      .toEqual([PRICING, PRICING, PRICING]);
    // Only a leading www. label: other subdomains are other sites.
    expect(['https://docs.acme.example/pricing', 'https://www2.acme.example/pricing', 'https://acme.example.www/pricing'].map(pageAddress))
      .toEqual(['docs.acme.example/pricing', 'www2.acme.example/pricing', 'acme.example.www/pricing']);
  });

  it('leaves out trailing slashes of the path, but keeps the case of the path', () => {
    expect(['https://acme.example/pricing/', 'https://acme.example/pricing//'].map(pageAddress)).toEqual([PRICING, PRICING]);
    expect(['https://acme.example/', 'https://acme.example'].map(pageAddress)).toEqual(['acme.example', 'acme.example']);
    expect(pageAddress('https://acme.example/Pricing')).toBe('acme.example/Pricing');
  });

  it('leaves out the fragment and user information', () => {
    expect(['https://acme.example/pricing#plans', 'https://acme.example/pricing#', 'https://user:secret@acme.example/pricing'].map(pageAddress))
      .toEqual([PRICING, PRICING, PRICING]);
  });

  it('leaves out ports 80 and 443, keeps any other', () => {
    expect(['http://acme.example:80/pricing', 'https://acme.example:443/pricing', 'http://acme.example:443/pricing'].map(pageAddress))
      .toEqual([PRICING, PRICING, PRICING]);
    expect(pageAddress('https://acme.example:8443/pricing')).toBe('acme.example:8443/pricing');
  });

  it('leaves out tracking parameters, utm_* of any name and the click ids, in any case', () => {
    const tracked = [
      'https://acme.example/pricing?utm_source=chatgpt.com',
      'https://acme.example/pricing?utm_source=perplexity&utm_medium=referral&utm_campaign=x&utm_content=y&utm_term=z&utm_id=1',
      'https://acme.example/pricing?UTM_Source=chatgpt.com',
      'https://acme.example/pricing?gclid=1&gbraid=2&wbraid=3&dclid=4&fbclid=5&msclkid=6&mc_cid=7&mc_eid=8&_ga=9&_gl=10&igshid=11&yclid=12&twclid=13&srsltid=14',
      'https://acme.example/pricing?',
      'https://acme.example/pricing?&&utm_source=x&',
      'https://acme.example/pricing?utm%5Fsource=encoded-name',
    ];
    expect(tracked.map(pageAddress)).toEqual(tracked.map(() => PRICING));
  });

  it('keeps the other query parameters, as written and in their order', () => {
    expect(pageAddress('https://acme.example/pricing?plan=pro&utm_source=chatgpt.com&seats=5')).toBe(`${PRICING}?plan=pro&seats=5`);
    expect(pageAddress('https://acme.example/pricing?seats=5&plan=pro')).toBe(`${PRICING}?seats=5&plan=pro`);
    // A name that merely contains a tracking name is not one.
    expect(pageAddress('https://acme.example/pricing?utm=1&my_gclid=2&utm_=3')).toBe(`${PRICING}?utm=1&my_gclid=2&utm_=3`);
    // A name whose percent-encoding is broken is kept as written, never a failed import.
    expect(pageAddress('https://acme.example/pricing?%E0%A4%A=1&utm_source=x')).toBe(`${PRICING}?%E0%A4%A=1`);
  });

  it('reduces every spelling at once: the example of the contract', () => {
    expect(pageAddress('HTTPS://WWW.Acme.Example/Pricing/?utm_source=chatgpt.com&plan=pro#faq')).toBe('acme.example/Pricing?plan=pro');
    expect(pageAddress('https://www.Acme.example/pricing/?utm_source=chatgpt.com#plans')).toBe(pageAddress('http://acme.example/pricing'));
  });

  it('has no address for what is not an http(s) URL', () => {
    expect(['not a url', 'mailto:sales@acme.example', 'ftp://acme.example/pricing', ''].map(pageAddress)).toEqual([null, null, null, null]);
  });
});
