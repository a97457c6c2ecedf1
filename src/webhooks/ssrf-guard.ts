/*
 * SSRF guard for customer-supplied webhook URLs.
 * Why: webhook delivery makes our server send requests to URLs that customers choose, so a URL pointing
 * at loopback, the private network or cloud metadata (169.254.169.254) would let a customer reach our internals.
 * URLs are checked when saved (every resolved address must be public) AND again at connect time, pinning the
 * checked address so DNS rebinding (public at save, private at delivery) cannot slip through.
 * Node never calls `lookup` for IP-literal hosts, so delivery must connect via `guardedTarget()` + `pinnedRequestOptions()`.
 */
import dns from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import type { RequestOptions } from 'node:https';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'reserved'
  | 'unspecified';

/** Resolves a host name to every address it maps to (IPv4 and/or IPv6 text form). */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface SsrfGuardOptions {
  /** Development/test switch: permits loopback, private (RFC1918, CGNAT) and unique-local targets. */
  allowPrivate: boolean;
  /** Name resolver; defaults to dns.lookup({ all: true }). Injected in tests. */
  resolve?: Resolver;
}

export interface GuardedTarget {
  url: URL;
  /** The validated address the connection must be made to. */
  address: string;
  family: 4 | 6;
}

export class SsrfError extends Error {
  readonly code = 'ESSRF' as const;
  readonly address: string | undefined;
  readonly category: AddressClass | undefined;

  constructor(message: string, details: { address?: string; category?: AddressClass; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SsrfError';
    this.address = details.address;
    this.category = details.category;
  }
}

/*
 * Categories allowed by `allowPrivate`. Link-local (incl. cloud metadata 169.254.169.254), multicast,
 * reserved and unspecified are never legitimate webhook targets and stay refused even in development.
 */
const ALLOWED_WHEN_PRIVATE: ReadonlySet<AddressClass> = new Set(['public', 'loopback', 'private', 'unique-local']);

function isAllowed(category: AddressClass, allowPrivate: boolean): boolean {
  return category === 'public' || (allowPrivate && ALLOWED_WHEN_PRIVATE.has(category));
}

// ---------------------------------------------------------------------------------------------
// Address classification
// ---------------------------------------------------------------------------------------------

/** Parses a canonical dotted-quad (as validated by net.isIP) into an unsigned 32-bit integer. */
function ipv4ToInt(ip: string): number {
  const parts = ip.split('.').map(Number);
  return (((parts[0] ?? 0) << 24) | ((parts[1] ?? 0) << 16) | ((parts[2] ?? 0) << 8) | (parts[3] ?? 0)) >>> 0;
}

/** [network, prefix length, category]; the first match wins, so more specific ranges come first. */
const V4_RANGES: ReadonlyArray<readonly [string, number, AddressClass]> = [
  ['0.0.0.0', 32, 'unspecified'],
  ['0.0.0.0', 8, 'reserved'], // "this network"; 0.x connects to the local host on Linux
  ['127.0.0.0', 8, 'loopback'],
  ['10.0.0.0', 8, 'private'],
  ['172.16.0.0', 12, 'private'],
  ['192.168.0.0', 16, 'private'],
  ['100.64.0.0', 10, 'private'], // CGNAT shared address space
  ['169.254.0.0', 16, 'link-local'], // includes cloud metadata endpoints
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // TEST-NET-1
  ['198.51.100.0', 24, 'reserved'], // TEST-NET-2
  ['203.0.113.0', 24, 'reserved'], // TEST-NET-3
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes 255.255.255.255 broadcast
];

const V4_TABLE = V4_RANGES.map(([net, bits, category]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { net: (ipv4ToInt(net) & mask) >>> 0, mask, category };
});

function classifyV4(ip: string): AddressClass {
  const n = ipv4ToInt(ip);
  for (const { net, mask, category } of V4_TABLE) {
    if (((n & mask) >>> 0) === net) return category;
  }
  return 'public';
}

/** Expands an IPv6 address (validated by net.isIP, zone already stripped) into 8 16-bit groups. */
function ipv6ToGroups(ip: string): number[] {
  let text = ip.toLowerCase();
  // A trailing embedded dotted IPv4 (e.g. ::ffff:127.0.0.1) becomes two hex groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4ToInt(tail);
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const parse = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const dbl = text.indexOf('::');
  if (dbl < 0) return parse(text);
  const head = parse(text.slice(0, dbl));
  const rest = parse(text.slice(dbl + 2));
  return [...head, ...new Array<number>(Math.max(0, 8 - head.length - rest.length)).fill(0), ...rest];
}

function embeddedV4(hi: number, lo: number): string {
  return `${hi >>> 8}.${hi & 0xff}.${lo >>> 8}.${lo & 0xff}`;
}

function classifyV6(ip: string): AddressClass {
  const g = ipv6ToGroups(ip);
  const at = (i: number): number => g[i] ?? 0;
  const firstFiveZero = at(0) === 0 && at(1) === 0 && at(2) === 0 && at(3) === 0 && at(4) === 0;

  if (firstFiveZero && at(5) === 0 && at(6) === 0) {
    if (at(7) === 0) return 'unspecified'; // ::
    if (at(7) === 1) return 'loopback'; // ::1
  }
  // ::ffff:0:0/96 IPv4-mapped -> classify by the embedded IPv4.
  if (firstFiveZero && at(5) === 0xffff) return classifyV4(embeddedV4(at(6), at(7)));
  // ::/96 deprecated IPv4-compatible (::a.b.c.d) -> embedded IPv4.
  if (firstFiveZero && at(5) === 0) return classifyV4(embeddedV4(at(6), at(7)));
  // 64:ff9b::/96 NAT64 well-known prefix -> embedded IPv4.
  if (at(0) === 0x64 && at(1) === 0xff9b && at(2) === 0 && at(3) === 0 && at(4) === 0 && at(5) === 0) {
    return classifyV4(embeddedV4(at(6), at(7)));
  }
  // 64:ff9b:1::/48 local-use NAT64 (RFC 8215): translates into operator-local space.
  if (at(0) === 0x64 && at(1) === 0xff9b && at(2) === 1) return 'private';
  // 2002::/16 6to4 -> IPv4 embedded in bits 16..47.
  if (at(0) === 0x2002) return classifyV4(embeddedV4(at(1), at(2)));

  if ((at(0) & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((at(0) & 0xfe00) === 0xfc00) return 'unique-local'; // fc00::/7
  if ((at(0) & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  if ((at(0) & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 deprecated site-local
  if (at(0) === 0x2001 && at(1) === 0x0db8) return 'reserved'; // documentation
  // Only 2000::/3 is allocated as global unicast; everything else is special-purpose or unassigned.
  if ((at(0) & 0xe000) !== 0x2000) return 'reserved';
  return 'public';
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * Classifies an IP address (IPv4 dotted-quad or IPv6, optionally bracketed, optional %zone).
 * Throws a TypeError for anything that is not an IP address.
 */
export function classifyAddress(ip: string): AddressClass {
  let text = stripBrackets(ip.trim());
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const family = isIP(text);
  if (family === 4) return classifyV4(text);
  if (family === 6) return classifyV6(text);
  throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
}

/** True only for globally routable addresses; false for special-purpose ranges and for non-IP input. */
export function isPublicAddress(ip: string): boolean {
  try {
    return classifyAddress(ip) === 'public';
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// URL and host checks
// ---------------------------------------------------------------------------------------------

function article(category: AddressClass): string {
  return /^[aeiou]/.test(category) ? 'an' : 'a';
}

/** Host names that resolve to loopback by definition (RFC 6761), refused without consulting DNS. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function checkAddress(address: string, allowPrivate: boolean, what: string): AddressClass {
  let category: AddressClass;
  try {
    category = classifyAddress(address);
  } catch (cause) {
    throw new SsrfError(`${what}: resolved to an unparseable address (${address})`, { address, cause });
  }
  if (!isAllowed(category, allowPrivate)) {
    throw new SsrfError(`${what}: resolves to ${article(category)} ${category} address (${address})`, {
      address,
      category,
    });
  }
  return category;
}

/** The system's resolver (getaddrinfo, as every other connection of the process resolves). */
export const systemResolver: Resolver = async (hostname) => {
  const results = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return results.map((r) => r.address);
};

function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new SsrfError('url: not a valid absolute URL', { cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SsrfError(`url: scheme ${url.protocol.replace(/:$/, '')} is not allowed (only http and https)`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new SsrfError('url: credentials (user:pass@) are not allowed in webhook URLs');
  }
  if (stripBrackets(url.hostname) === '') {
    throw new SsrfError('url: host is empty');
  }
  return url;
}

/**
 * Validates and resolves a URL. Returns the URL plus every resolved address, all of them allowed.
 * `new URL()` (WHATWG) has already normalised decimal/hex/octal/short IPv4 and IPv6 notations.
 */
async function resolveChecked(raw: string, opts: SsrfGuardOptions): Promise<{ url: URL; addresses: string[] }> {
  const url = parseWebhookUrl(raw);
  const host = stripBrackets(url.hostname);

  if (isIP(host) !== 0) {
    checkAddress(host, opts.allowPrivate, 'url');
    return { url, addresses: [host] };
  }
  if (isLocalhostName(host) && !opts.allowPrivate) {
    throw new SsrfError(`url: host ${host} is a loopback name`, { category: 'loopback' });
  }

  let addresses: string[];
  try {
    addresses = await (opts.resolve ?? systemResolver)(host);
  } catch (cause) {
    const code = (cause as { code?: unknown } | null)?.code;
    throw new SsrfError(`url: host ${host} could not be resolved${typeof code === 'string' ? ` (${code})` : ''}`, {
      cause,
    });
  }
  if (addresses.length === 0) throw new SsrfError(`url: host ${host} did not resolve to any address`);
  // Every address must pass: a name with one public and one private record is refused.
  for (const address of addresses) checkAddress(address, opts.allowPrivate, 'url');
  return { url, addresses };
}

/**
 * Save-time check: scheme, credentials, host, and every address the host resolves to.
 * Resolves to the parsed URL; rejects with SsrfError (code 'ESSRF').
 */
export async function assertSafeWebhookUrl(url: string, opts: SsrfGuardOptions): Promise<URL> {
  return (await resolveChecked(url, opts)).url;
}

/**
 * Delivery-time check: like assertSafeWebhookUrl, but also returns the validated address the caller must
 * connect to (pinned), because Node skips `lookup` entirely for IP-literal hosts.
 */
export async function guardedTarget(url: string, opts: SsrfGuardOptions): Promise<GuardedTarget> {
  const { url: parsed, addresses } = await resolveChecked(url, opts);
  const address = addresses[0] as string; // resolveChecked guarantees at least one
  return { url: parsed, address, family: isIP(address) === 6 ? 6 : 4 };
}

/**
 * http(s).request options that connect to the pinned address while keeping the URL's Host header and TLS
 * name (SNI + certificate check). Spread extra options (method, headers, timeout) over the result.
 */
export function pinnedRequestOptions(target: GuardedTarget, opts: { allowPrivate: boolean }): RequestOptions {
  const { url, address, family } = target;
  const hostname = stripBrackets(url.hostname).replace(/\.+$/, '');
  const options: RequestOptions = {
    protocol: url.protocol,
    host: address,
    family,
    port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers: { host: url.host },
    // Belt and braces: if anything makes Node resolve a name after all, it goes through the guard.
    lookup: createGuardedLookup(opts),
  };
  // SNI must be a DNS name (RFC 6066); for IP literals, tls verifies the certificate against `host`.
  if (url.protocol === 'https:' && isIP(hostname) === 0) options.servername = hostname;
  return options;
}

// ---------------------------------------------------------------------------------------------
// Connect-time lookup
// ---------------------------------------------------------------------------------------------

function familyOf(option: dns.LookupOptions['family']): 0 | 4 | 6 {
  if (option === 4 || option === 'IPv4') return 4;
  if (option === 6 || option === 'IPv6') return 6;
  return 0;
}

/**
 * A `lookup` for http/https/net options or Agents. Resolves the name once, refuses the connection
 * (error code 'ESSRF') unless every address is allowed, and hands Node exactly the addresses it checked.
 * Honours `options.all` (Node passes all:true when autoSelectFamily is on) and `options.family`.
 * Note: Node does not call `lookup` for IP-literal hosts; use guardedTarget() for those.
 */
export function createGuardedLookup(opts: SsrfGuardOptions): LookupFunction {
  return (hostname, options, callback) => {
    const family = familyOf(options?.family);
    const fail = (err: NodeJS.ErrnoException): void => process.nextTick(() => callback(err, '', 0));
    const done = (addresses: dns.LookupAddress[]): void => {
      for (const { address } of addresses) {
        try {
          checkAddress(address, opts.allowPrivate, hostname);
        } catch (err) {
          fail(err as SsrfError);
          return;
        }
      }
      const first = addresses[0];
      if (first === undefined) {
        const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        err.code = 'ENOTFOUND';
        fail(err);
        return;
      }
      if (options?.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    };

    const host = stripBrackets(hostname);
    const literal = isIP(host);
    if (literal !== 0) {
      process.nextTick(done, [{ address: host, family: literal }]);
      return;
    }
    if (isLocalhostName(host) && !opts.allowPrivate) {
      fail(new SsrfError(`${hostname}: host is a loopback name`, { category: 'loopback' }));
      return;
    }
    if (opts.resolve) {
      opts.resolve(host).then(
        (list) =>
          done(
            list
              .map((address) => ({ address, family: isIP(address) }))
              // family 0 (unparseable) entries are kept so checkAddress refuses them
              .filter((a) => family === 0 || a.family === 0 || a.family === family),
          ),
        (err: NodeJS.ErrnoException) => fail(err),
      );
      return;
    }
    dns.lookup(host, { ...options, all: true }, (err, addresses) => {
      if (err) fail(err);
      else done(addresses);
    });
  };
}
