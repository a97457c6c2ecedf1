// How a cited URL is matched to a content-map page: both are reduced to a page address, and equal
// addresses are the same page. The contract states the rules (openapi/components/schemas/CitedPage.yaml);
// test/unit/store/page-address.test.ts pins each one.

// Query parameters that say where a visitor came from, never which page they see. AI answers add
// some themselves (ChatGPT links carry `utm_source=chatgpt.com`).
const TRACKING_PARAMETER = /^(utm_.+|gclid|gbraid|wbraid|dclid|fbclid|msclkid|mc_cid|mc_eid|_ga|_gl|igshid|yclid|twclid|srsltid)$/i;

function parameterName(pair: string): string {
  const name = pair.split('=', 1)[0]!;
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * The address of the page an http(s) URL shows: its host in lower case without a leading `www.`
 * or a final dot, its port unless 80 or 443, its path without trailing slashes (case kept), and its
 * query without tracking parameters (the others in their order, as written). The scheme, user
 * information and fragment are left out. Null for anything that is not an http(s) URL.
 *
 * `HTTPS://WWW.Acme.Example/Pricing/?utm_source=chatgpt.com&plan=pro#faq` → `acme.example/Pricing?plan=pro`
 */
export function pageAddress(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
  const port = parsed.port === '' || parsed.port === '80' || parsed.port === '443' ? '' : `:${parsed.port}`;
  const path = parsed.pathname.replace(/\/+$/, '');
  const query = parsed.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !TRACKING_PARAMETER.test(parameterName(pair)))
    .join('&');
  return `${host}${port}${path}${query === '' ? '' : `?${query}`}`;
}
