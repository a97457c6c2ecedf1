// Which pages are the brand's own: a page is own when its host is one of the brand's domains or
// a subdomain of one. Domains are kept lower-case without a leading `www.`, so `www.acme.example`
// and `acme.example` name the same site.

/** `WWW.Acme.Example.` → `acme.example`. */
export function normaliseDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
}

/** Lower-case host of an http(s) URL; the empty string when it is not one. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

export function isOwnHost(host: string, domains: readonly string[]): boolean {
  const bare = normaliseDomain(host);
  return domains.some((d) => bare === d || bare.endsWith(`.${d}`));
}
