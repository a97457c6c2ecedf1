import http from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { AddressInfo, LookupFunction } from 'node:net';
import type { LookupAddress } from 'node:dns';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SsrfError,
  assertSafeWebhookUrl,
  classifyAddress,
  createGuardedLookup,
  guardedTarget,
  isPublicAddress,
  pinnedRequestOptions,
} from '../../../src/webhooks/ssrf-guard.js';

type Outcome = { ok: true; status: number } | { ok: false; code: string | undefined; message: string };

/** Issues one request and reports the outcome; `agent: false` so no pooled socket skips the lookup. */
function send(target: string | http.RequestOptions, extra: http.RequestOptions = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const req =
      typeof target === 'string'
        ? http.request(target, { agent: false, ...extra }, onRes)
        : http.request({ agent: false, ...target, ...extra }, onRes);
    function onRes(res: http.IncomingMessage): void {
      res.resume();
      res.on('end', () => resolve({ ok: true, status: res.statusCode ?? 0 }));
    }
    req.setTimeout(5_000, () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ ok: false, code: err.code, message: err.message }));
    req.end();
  });
}

/** The delivery path: guardedTarget() then connect to the pinned address. */
async function deliver(url: string, allowPrivate: boolean, resolve?: (h: string) => Promise<string[]>): Promise<Outcome> {
  const opts = resolve ? { allowPrivate, resolve } : { allowPrivate };
  let target;
  try {
    target = await guardedTarget(url, opts);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { ok: false, code: e.code, message: e.message };
  }
  return send(pinnedRequestOptions(target, opts));
}

function startServer(): Promise<{ server: http.Server; port: number; connections: () => number; hosts: string[] }> {
  return new Promise((resolve) => {
    let connections = 0;
    const hosts: string[] = [];
    const server = http.createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      res.end('sentinel');
    });
    server.on('connection', () => {
      connections += 1;
    });
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, port, connections: () => connections, hosts });
    });
  });
}

const closeServer = (server: http.Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const hostOf = (url: string): string => new URL(url).hostname.replace(/^\[|\]$/g, '');

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:808:808::1', 'public'],
    ['100.128.0.0', 'public'],
    ['172.32.0.0', 'public'],
    ['198.20.0.0', 'public'],
    ['223.255.255.255', 'public'],
  ])('%s is %s', (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    // IPv6
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    // Embedded IPv4 is classified by the IPv4 part.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['64:ff9b::169.254.169.254', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:a9fe:a9fe::1', 'link-local'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
  ])('%s is %s', (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
    expect(isPublicAddress(ip)).toBe(false);
  });

  it('rejects non-IP input', () => {
    expect(() => classifyAddress('example.com')).toThrow(TypeError);
    expect(() => classifyAddress('127.1')).toThrow(TypeError); // only canonical forms; URLs are normalised first
    expect(isPublicAddress('example.com')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });

  it('agrees with a node:net BlockList oracle and across IPv6 embeddings (property)', () => {
    const oracle = new BlockList();
    for (const [net, bits] of [
      ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
      ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
      ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
    ] as const) {
      oracle.addSubnet(net, bits, 'ipv4');
    }
    const hex = (n: number): string => n.toString(16);
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
        const hi = hex((a << 8) | b);
        const lo = hex((c << 8) | d);
        const category = classifyAddress(v4);
        expect(category === 'public').toBe(!oracle.check(v4, 'ipv4'));
        expect(classifyAddress(`::ffff:${v4}`)).toBe(category);
        expect(classifyAddress(`::ffff:${hi}:${lo}`)).toBe(category);
        expect(classifyAddress(`64:ff9b::${hi}:${lo}`)).toBe(category);
        expect(classifyAddress(`2002:${hi}:${lo}::1`)).toBe(category);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('assertSafeWebhookUrl: URL rules', () => {
  const opts = { allowPrivate: false, resolve: async () => ['93.184.215.14'] };

  it('accepts a public https URL and returns the parsed URL', async () => {
    const url = await assertSafeWebhookUrl('https://hooks.example.com/in?x=1', opts);
    expect(url).toBeInstanceOf(URL);
    expect(url.hostname).toBe('hooks.example.com');
  });

  it('accepts public IP literals without resolving', async () => {
    const resolve = async (): Promise<string[]> => {
      throw new Error('must not resolve');
    };
    await expect(assertSafeWebhookUrl('http://8.8.8.8/', { allowPrivate: false, resolve })).resolves.toBeInstanceOf(URL);
    await expect(
      assertSafeWebhookUrl('https://[2606:4700::1111]/', { allowPrivate: false, resolve }),
    ).resolves.toBeInstanceOf(URL);
  });

  it.each(['ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/', 'javascript:alert(1)', 'data:,x', 'ws://example.com/'])(
    'rejects scheme %s',
    async (url) => {
      await expect(assertSafeWebhookUrl(url, opts)).rejects.toMatchObject({ code: 'ESSRF', message: /scheme/ });
    },
  );

  it.each(['http://user:pass@example.com/', 'http://user@example.com/', 'https://:secret@example.com/'])(
    'rejects credentials in %s',
    async (url) => {
      await expect(assertSafeWebhookUrl(url, opts)).rejects.toMatchObject({ code: 'ESSRF', message: /credentials/ });
    },
  );

  it.each(['', 'http://', 'http://:80/', 'not a url', '/relative/path'])('rejects unparseable or host-less %j', async (url) => {
    await expect(assertSafeWebhookUrl(url, opts)).rejects.toBeInstanceOf(SsrfError);
  });

  it('gives a clear message naming the category and address', async () => {
    await expect(assertSafeWebhookUrl('http://2130706433/', opts)).rejects.toThrow(
      'url: resolves to a loopback address (127.0.0.1)',
    );
    await expect(assertSafeWebhookUrl('http://169.254.169.254/latest/meta-data/', opts)).rejects.toThrow(
      'url: resolves to a link-local address (169.254.169.254)',
    );
  });

  it('refuses a public-looking name that resolves to a private address (rebinding at save time)', async () => {
    const resolve = async (host: string): Promise<string[]> => {
      expect(host).toBe('hooks.attacker.example');
      return ['10.0.0.5'];
    };
    const err = await assertSafeWebhookUrl('https://hooks.attacker.example/x', { allowPrivate: false, resolve }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SsrfError);
    expect(err).toMatchObject({ code: 'ESSRF', address: '10.0.0.5', category: 'private' });
    expect((err as Error).message).toBe('url: resolves to a private address (10.0.0.5)');
  });

  it('refuses a name whose records mix public and private addresses', async () => {
    const resolve = async (): Promise<string[]> => ['93.184.215.14', '2606:4700::1111', '::ffff:169.254.169.254'];
    await expect(
      assertSafeWebhookUrl('https://mixed.example/', { allowPrivate: false, resolve }),
    ).rejects.toMatchObject({ code: 'ESSRF', address: '::ffff:169.254.169.254', category: 'link-local' });
  });

  it('refuses names that resolve to nothing or fail to resolve', async () => {
    await expect(
      assertSafeWebhookUrl('https://empty.example/', { allowPrivate: false, resolve: async () => [] }),
    ).rejects.toMatchObject({ code: 'ESSRF' });
    const failing = async (): Promise<string[]> => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    await expect(
      assertSafeWebhookUrl('https://nx.example/', { allowPrivate: false, resolve: failing }),
    ).rejects.toMatchObject({ code: 'ESSRF', message: /could not be resolved \(ENOTFOUND\)/ });
  });

  it('allowPrivate permits loopback/private/unique-local but never link-local, multicast, reserved or unspecified', async () => {
    const dev = { allowPrivate: true, resolve: async () => ['10.1.2.3'] };
    await expect(assertSafeWebhookUrl('http://127.0.0.1:8080/', dev)).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl('http://[fd00::1]/', dev)).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl('http://internal.example/', dev)).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl('http://localhost:8080/', { allowPrivate: true, resolve: async () => ['127.0.0.1'] }))
      .resolves.toBeInstanceOf(URL);
    for (const url of ['http://169.254.169.254/', 'http://224.0.0.1/', 'http://240.0.0.1/', 'http://0.0.0.0/', 'http://[::]/']) {
      await expect(assertSafeWebhookUrl(url, dev)).rejects.toMatchObject({ code: 'ESSRF' });
    }
    // Credentials and schemes are refused regardless of allowPrivate.
    await expect(assertSafeWebhookUrl('http://u:p@127.0.0.1/', dev)).rejects.toMatchObject({ code: 'ESSRF' });
    await expect(assertSafeWebhookUrl('file:///etc/passwd', dev)).rejects.toMatchObject({ code: 'ESSRF' });
  });
});

describe('createGuardedLookup', () => {
  const call = (lookup: LookupFunction, host: string, options: Parameters<LookupFunction>[1]) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family: number | undefined }>(
      (resolve) => lookup(host, options, (err, address, family) => resolve({ err, address, family })),
    );

  it('honours options.all (array) and the single-address form', async () => {
    const lookup = createGuardedLookup({ allowPrivate: false, resolve: async () => ['93.184.215.14', '2606:4700::1111'] });
    const all = await call(lookup, 'hooks.example.com', { all: true });
    expect(all.err).toBeNull();
    expect(all.address).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ]);
    const one = await call(lookup, 'hooks.example.com', {});
    expect(one).toEqual({ err: null, address: '93.184.215.14', family: 4 });
    const v6 = await call(lookup, 'hooks.example.com', { family: 6 });
    expect(v6).toEqual({ err: null, address: '2606:4700::1111', family: 6 });
  });

  it('fails with ESSRF for private results, in both forms', async () => {
    const lookup = createGuardedLookup({ allowPrivate: false, resolve: async () => ['93.184.215.14', '10.0.0.1'] });
    for (const options of [{ all: true }, {}]) {
      const { err } = await call(lookup, 'mixed.example', options);
      expect(err).toBeInstanceOf(SsrfError);
      expect(err?.code).toBe('ESSRF');
    }
  });

  it('uses the real resolver by default (localhost names are refused before DNS)', async () => {
    const lookup = createGuardedLookup({ allowPrivate: false });
    const { err } = await call(lookup, 'localhost', { all: true });
    expect(err?.code).toBe('ESSRF');
  });
});

describe('SSRF corpus against a loopback sentinel', () => {
  let sentinel: Awaited<ReturnType<typeof startServer>>;
  let canary: Awaited<ReturnType<typeof startServer>>;
  const guarded = createGuardedLookup({ allowPrivate: false });

  // Every spelling points at 127.0.0.1:<port> (or another loopback/unspecified form) — the sentinel.
  const corpus = (p: number): string[] => [
    `http://127.0.0.1:${p}/`,
    `https://127.0.0.1:${p}/`,
    `http://2130706433:${p}/`,
    `http://0x7f000001:${p}/`,
    `http://0X7F000001:${p}/`,
    `http://0x7f.0.0.1:${p}/`,
    `http://0x7f.0x0.0x0.0x1:${p}/`,
    `http://0177.0.0.1:${p}/`,
    `http://0177.0000.0000.0001:${p}/`,
    `http://017700000001:${p}/`,
    `http://0x7f.1:${p}/`,
    `http://0177.1:${p}/`,
    `http://127.1:${p}/`,
    `http://127.0.1:${p}/`,
    `http://127.000.000.001:${p}/`,
    `http://127.0.0.1.:${p}/`,
    `http://0x7f.0.1:${p}/`,
    `http://%31%32%37.0.0.1:${p}/`,
    `http://\uff11\uff12\uff17.\uff10.\uff10.\uff11:${p}/`, // full-width digits
    `http://127\u30020\u30020\u30021:${p}/`, // ideographic full stops
    `http://localhost:${p}/`,
    `http://LOCALHOST.:${p}/`,
    `http://LocalHost:${p}/`,
    `http://sub.localhost:${p}/`,
    `http://a.b.localhost.:${p}/`,
    `http://[::1]:${p}/`,
    `http://[0:0:0:0:0:0:0:1]:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`,
    `http://[::ffff:7f00:1]:${p}/`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`,
    `http://[0000:0000:0000:0000:0000:FFFF:7F00:0001]:${p}/`,
    `http://[::127.0.0.1]:${p}/`,
    `http://[64:ff9b::127.0.0.1]:${p}/`,
    `http://[2002:7f00:1::1]:${p}/`,
    `http://0.0.0.0:${p}/`,
    `http://0:${p}/`,
    `http://0x0:${p}/`,
    `http://[::]:${p}/`,
    `http://127.0.0.1:${p}#@example.com/`,
    `http://127.0.0.1:${p}\\@example.com/`,
    `http://example.com@127.0.0.1:${p}/`,
  ];

  beforeAll(async () => {
    sentinel = await startServer();
    canary = await startServer();
  });

  afterAll(async () => {
    await closeServer(sentinel.server);
    await closeServer(canary.server);
  });

  /** Runs a test of refusals and expects the sentinel to have seen no connection meanwhile, whatever ran before it. */
  async function refusedWithoutConnecting(body: () => Promise<void>): Promise<void> {
    const before = sentinel.connections();
    await body();
    expect(sentinel.connections(), 'connections that reached the sentinel').toBe(before);
  }

  it('has a corpus of at least 30 spellings', () => {
    expect(corpus(sentinel.port).length).toBeGreaterThanOrEqual(30);
  });

  it('premise: Node does not call `lookup` for IP-literal hosts (so guardedTarget is required)', async () => {
    let calls = 0;
    const spy: LookupFunction = (host, options, cb) => {
      calls += 1;
      guarded(host, options, cb);
    };
    const before = canary.connections();
    const outcome = await send(`http://127.0.0.1:${canary.port}/`, { lookup: spy });
    expect(calls).toBe(0);
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(canary.connections()).toBe(before + 1);
  });

  it('assertSafeWebhookUrl rejects every spelling with ESSRF', () => refusedWithoutConnecting(async () => {
    for (const url of corpus(sentinel.port)) {
      const err = await assertSafeWebhookUrl(url, { allowPrivate: false }).then(
        () => new Error(`accepted: ${url}`),
        (e: unknown) => e,
      );
      expect(err, url).toBeInstanceOf(SsrfError);
      expect((err as SsrfError).code, url).toBe('ESSRF');
    }
  }));

  it('the delivery path (guardedTarget + pinned connect) fails every spelling with ESSRF', () => refusedWithoutConnecting(async () => {
    for (const url of corpus(sentinel.port)) {
      const outcome = await deliver(url, false);
      expect(outcome, url).toMatchObject({ ok: false, code: 'ESSRF' });
    }
  }));

  it('a plain http.request with the guarded lookup fails with ESSRF for every name-based spelling', () => refusedWithoutConnecting(async () => {
    const named = corpus(sentinel.port).filter((url) => isIP(hostOf(url)) === 0);
    expect(named.length).toBeGreaterThanOrEqual(5);
    for (const url of named) {
      const outcome = await send(url, { lookup: guarded });
      expect(outcome, url).toMatchObject({ ok: false, code: 'ESSRF' });
    }
  }));

  it('defeats DNS rebinding at connect time (name resolves to loopback only at delivery)', () => refusedWithoutConnecting(async () => {
    let flips = 0;
    const rebinding = async (): Promise<string[]> => (flips++ === 0 ? ['93.184.215.14'] : ['127.0.0.1']);
    const url = `http://rebind.attacker.example:${sentinel.port}/`;
    await expect(assertSafeWebhookUrl(url, { allowPrivate: false, resolve: rebinding })).resolves.toBeInstanceOf(URL);
    // Plain request with the guarded lookup: the second answer (127.0.0.1) is refused.
    const lookup = createGuardedLookup({ allowPrivate: false, resolve: async () => ['127.0.0.1'] });
    expect(await send(url, { lookup })).toMatchObject({ ok: false, code: 'ESSRF' });
    // Mixed answer at connect time is refused as a whole.
    const mixed = createGuardedLookup({ allowPrivate: false, resolve: async () => ['93.184.215.14', '127.0.0.1'] });
    expect(await send(url, { lookup: mixed })).toMatchObject({ ok: false, code: 'ESSRF' });
    expect(await send(url, { lookup: mixed, family: 4 })).toMatchObject({ ok: false, code: 'ESSRF' });
    // Delivery path re-resolves and re-checks.
    expect(await deliver(url, false, async () => ['127.0.0.1'])).toMatchObject({ ok: false, code: 'ESSRF' });
  }));

  it('with allowPrivate true, the guarded paths reach the sentinel with the original Host header', async () => {
    const before = sentinel.connections();
    const dev = createGuardedLookup({ allowPrivate: true });
    expect(await send(`http://127.0.0.1:${sentinel.port}/`, { lookup: dev })).toMatchObject({ ok: true, status: 200 });

    // Name-based: the lookup is actually invoked and the address it validated is used.
    const devNamed = createGuardedLookup({ allowPrivate: true, resolve: async () => ['127.0.0.1'] });
    expect(await send(`http://dev.internal.test:${sentinel.port}/`, { lookup: devNamed })).toMatchObject({
      ok: true,
      status: 200,
    });

    // Delivery path pinned to the checked address, Host header kept from the URL.
    expect(await deliver(`http://127.0.0.1:${sentinel.port}/hook`, true)).toMatchObject({ ok: true, status: 200 });
    expect(
      await deliver(`http://dev.internal.test:${sentinel.port}/hook?x=1`, true, async () => ['127.0.0.1']),
    ).toMatchObject({ ok: true, status: 200 });

    expect(sentinel.connections()).toBe(before + 4);
    expect(sentinel.hosts.slice(-2)).toEqual([`127.0.0.1:${sentinel.port}`, `dev.internal.test:${sentinel.port}`]);
  });

  it('pinnedRequestOptions keeps Host and SNI from the URL but connects to the checked address', async () => {
    const target = await guardedTarget('https://hooks.example.com:8443/in?a=1', {
      allowPrivate: false,
      resolve: async () => ['2606:4700::1111'],
    });
    expect(target).toMatchObject({ address: '2606:4700::1111', family: 6 });
    const options = pinnedRequestOptions(target, { allowPrivate: false });
    expect(options).toMatchObject({
      protocol: 'https:',
      host: '2606:4700::1111',
      family: 6,
      port: 8443,
      path: '/in?a=1',
      headers: { host: 'hooks.example.com:8443' },
      servername: 'hooks.example.com',
    });
    const literal = pinnedRequestOptions(await guardedTarget('https://[2606:4700::1111]/', { allowPrivate: false }), {
      allowPrivate: false,
    });
    expect(literal).toMatchObject({ host: '2606:4700::1111', port: 443 });
    expect(literal.servername).toBeUndefined();
  });
});
