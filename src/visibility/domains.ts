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

/**
 * The spellings under which a content-map page may hold the same address as a cited URL: either
 * scheme, with or without a leading `www.`, with or without a trailing `/`, never the fragment.
 */
export function addressVariants(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const bare = parsed.host.toLowerCase().replace(/^www\./, '');
  const path = parsed.pathname;
  const paths = path.endsWith('/') ? [path, path.slice(0, -1)] : [path, `${path}/`];
  const out = new Set<string>([url]);
  for (const scheme of ['https:', 'http:']) {
    for (const host of [bare, `www.${bare}`]) for (const p of paths) out.add(`${scheme}//${host}${p}${parsed.search}`);
  }
  return [...out];
}
