import net from 'node:net';
import {
  NotPublicAddressError,
  isPublicIp,
  parseWebhookUrl,
  pinnedLookup,
  resolvePublicUrl,
  type ResolvedAddress,
  type Resolver,
} from '../../../platform/net/publicAddress';

// `webhook.url_not_public` (docs/api/webhooks.md): the public-address guard, without real DNS.

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

const ANSWERS: Record<string, ResolvedAddress[]> = {
  'public.test': [v4('8.8.8.8'), v6('2606:4700::1111')],
  'evil.test': [v4('127.0.0.1')],
  'mixed.test': [v4('8.8.8.8'), v4('10.0.0.1')],
  'mixed6.test': [v6('2606:4700::1111'), v6('fd00::1')],
  'metadata.test': [v6('::ffff:169.254.169.254')],
  'zone.test': [v6('fe80::1%eth0')],
  'bogus.test': [v4('not-an-address')],
  'empty.test': [],
};

/**
 * Names it does not know resolve to a PUBLIC address, so every rejection in the table below must come from the
 * rule under test and never from an accidental "does not resolve".
 */
function fakeResolver(): jest.Mock<ReturnType<Resolver>, Parameters<Resolver>> {
  return jest.fn(async (hostname: string) => {
    if (hostname === 'nxdomain.test') {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return ANSWERS[hostname] ?? [v4('93.184.216.34')];
  });
}

// [url, the rejection reason must match]
const HOSTILE: Array<[string, RegExp]> = [
  ['http://2130706433/', /loopback/],
  ['http://0177.0.0.1/', /loopback/],
  ['http://0177.1/', /loopback/],
  ['http://0x7f.0.0.1/', /loopback/],
  ['http://0x7f000001/', /loopback/],
  ['http://0x7f.1/', /loopback/],
  ['http://127.1/', /loopback/],
  ['http://127.0.0.1:8080/hook', /loopback address 127\.0\.0\.1/],
  ['http://127.0.0.1./', /loopback/],
  ['http://%31%32%37.0.0.1/', /loopback/],
  ['http://\uff11\uff12\uff17.0.0.1/', /loopback/],
  ['http://0.0.0.0/', /unspecified/],
  ['http://0/', /unspecified/],
  ['http://0.1.2.3/', /unspecified/],
  ['http://[::]/', /unspecified/],
  ['http://[::1]/', /loopback/],
  ['http://[::ffff:127.0.0.1]/', /IPv4-mapped address embedding a loopback/],
  ['http://[::ffff:7f00:1]/', /IPv4-mapped address embedding a loopback/],
  ['http://[::ffff:a9fe:a9fe]/', /IPv4-mapped address embedding a link-local/],
  ['http://[::127.0.0.1]/', /IPv4-compatible address embedding a loopback/],
  ['http://[::ffff:0:7f00:1]/', /IPv4-translated/],
  ['http://[64:ff9b::7f00:1]/', /NAT64 address embedding a loopback/],
  ['http://[64:ff9b::a00:1]/', /NAT64 address embedding a private/],
  ['http://[64:ff9b:1::808:808]/', /local-use NAT64/],
  ['http://[2002:7f00:1::]/', /6to4 address embedding a loopback/],
  ['http://[2002:c0a8:101::]/', /6to4 address embedding a private/],
  ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', /Teredo/],
  ['http://[fe80::1]/', /link-local/],
  ['http://[fe80::1%25eth0]/', /not a valid URL/],
  ['http://[fc00::1]/', /unique-local/],
  ['http://[fd12:3456::1]/', /unique-local/],
  ['http://[ff02::1]/', /multicast/],
  ['http://[2001:db8::1]/', /reserved/],
  ['http://[100::1]/', /discard/],
  ['http://[::1:2:3:4]/', /reserved/],
  ['http://10.0.0.1/', /private/],
  ['http://172.16.0.1/', /private/],
  ['http://172.31.255.255/', /private/],
  ['http://192.168.1.1/', /private/],
  ['http://169.254.169.254/latest/meta-data/', /link-local/],
  ['http://100.64.0.1/', /carrier-grade NAT/],
  ['http://224.0.0.1/', /multicast/],
  ['http://255.255.255.255/', /broadcast/],
  ['http://192.0.2.1/', /reserved/],
  ['http://198.51.100.1/', /reserved/],
  ['http://203.0.113.1/', /reserved/],
  ['http://198.18.0.1/', /reserved/],
  ['http://198.19.255.254/', /reserved/],
  ['http://240.0.0.1/', /reserved/],
  ['http://192.0.0.1/', /reserved/],
  ['http://localhost/', /local-only name \(localhost\)/],
  ['http://LOCALHOST:8080/', /local-only/],
  ['http://foo.localhost/', /local-only/],
  ['http://%6c%6fcalhost/', /local-only/],
  ['http://localhost./', /ends with a dot/],
  ['http://public.test./', /ends with a dot/],
  ['http://printer.local/', /local-only name \(local\)/],
  ['http://metadata.google.internal/computeMetadata/v1/', /local-only name \(internal\)/],
  ['http://router.localdomain/', /local-only/],
  ['http://nas.home.arpa/', /local-only name \(home\.arpa\)/],
  ['http://user:pass@127.0.0.1/', /user name or password/],
  ['http://example.com@127.0.0.1/', /user name or password/],
  ['https://user@public.test/hook', /user name or password/],
  ['https://:secret@public.test/hook', /user name or password/],
  ['ftp://example.com/', /scheme ftp:/],
  ['file:///etc/passwd', /scheme file:/],
  ['javascript:alert(1)', /scheme javascript:/],
  ['gopher://127.0.0.1:25/_HELO', /scheme gopher:/],
  ['ws://public.test/', /scheme ws:/],
  ['data:text/plain,hello', /scheme data:/],
  ['not a url', /not a valid URL/],
  ['http://evil.test/hook', /hostname evil\.test resolves to a loopback address 127\.0\.0\.1/],
  ['http://mixed.test/hook', /resolves to a private address 10\.0\.0\.1/],
  ['http://mixed6.test/hook', /resolves to a unique-local address fd00::1/],
  ['http://metadata.test/', /IPv4-mapped address embedding a link-local/],
  ['http://zone.test/', /non-canonical address fe80::1%eth0/],
  ['http://bogus.test/', /non-address answer/],
  ['http://empty.test/', /does not resolve/],
  ['http://nxdomain.test/', /does not resolve/],
];

describe('resolvePublicUrl rejects hostile URLs', () => {
  it('has a table of at least 45 rows', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(45);
  });

  it.each(HOSTILE)('%s', async (url, reason) => {
    const resolver = fakeResolver();
    const err = await resolvePublicUrl(url, { allowPrivate: false, resolver }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotPublicAddressError);
    const e = err as NotPublicAddressError;
    expect(e.name).toBe('NotPublicAddressError');
    expect(e.code).toBe('webhook.url_not_public');
    expect(e.reason).toMatch(reason);
    expect(e.message).toContain(e.reason);
  });

  it('never asks DNS about an IP literal or a syntactically refused name', async () => {
    const resolver = fakeResolver();
    for (const url of ['http://2130706433/', 'http://[::1]/', 'http://localhost/', 'ftp://public.test/']) {
      await expect(resolvePublicUrl(url, { allowPrivate: false, resolver })).rejects.toThrow(NotPublicAddressError);
    }
    expect(resolver).not.toHaveBeenCalled();
  });

  it('passes resolver failures other than "no such name" through, so callers can retry', async () => {
    const resolver: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' });
    };
    const err = await resolvePublicUrl('https://public.test/', { allowPrivate: false, resolver }).catch((e) => e);
    expect(err).not.toBeInstanceOf(NotPublicAddressError);
    expect((err as NodeJS.ErrnoException).code).toBe('EAI_AGAIN');
  });
});

describe('resolvePublicUrl accepts public targets', () => {
  it('accepts a name whose every answer is public and returns all of them', async () => {
    const resolver = fakeResolver();
    const { url, addresses } = await resolvePublicUrl('https://public.test/hook?x=1', {
      allowPrivate: false,
      resolver,
    });
    expect(url.hostname).toBe('public.test');
    expect(url.pathname).toBe('/hook');
    expect(addresses).toEqual([v4('8.8.8.8'), v6('2606:4700::1111')]);
    expect(resolver).toHaveBeenCalledTimes(1);
    expect(resolver).toHaveBeenCalledWith('public.test');
  });

  it.each([
    ['http://8.8.8.8/', v4('8.8.8.8')],
    ['https://1.1.1.1:8443/x', v4('1.1.1.1')],
    ['http://[2606:4700::1111]/', v6('2606:4700::1111')],
    ['http://[::ffff:8.8.8.8]/', v6('::ffff:808:808')],
    ['http://[64:ff9b::808:808]/', v6('64:ff9b::808:808')],
    ['http://[2002:808:808::1]/', v6('2002:808:808::1')],
  ])('accepts the literal %s without DNS', async (raw, pinned) => {
    const resolver = fakeResolver();
    const { addresses } = await resolvePublicUrl(raw, { allowPrivate: false, resolver });
    expect(addresses).toEqual([pinned]);
    expect(resolver).not.toHaveBeenCalled();
  });

  it('with allowPrivate accepts loopback and private targets but still resolves names for pinning', async () => {
    const resolver = fakeResolver();
    const lit = await resolvePublicUrl('http://127.0.0.1:1234/', { allowPrivate: true, resolver });
    expect(lit.url.port).toBe('1234');
    expect(lit.addresses).toEqual([v4('127.0.0.1')]);
    const named = await resolvePublicUrl('http://mixed.test/', { allowPrivate: true, resolver });
    expect(named.addresses).toEqual([v4('8.8.8.8'), v4('10.0.0.1')]);
    const local = await resolvePublicUrl('http://localhost:3000/', {
      allowPrivate: true,
      resolver: async () => [v4('127.0.0.1')],
    });
    expect(local.addresses).toEqual([v4('127.0.0.1')]);
  });

  it('with allowPrivate still requires http(s), a hostname, no userinfo and a resolvable name', async () => {
    const resolver = fakeResolver();
    for (const raw of ['ftp://127.0.0.1/', 'file:///etc/passwd', 'http://u:p@127.0.0.1/', 'http://empty.test/']) {
      await expect(resolvePublicUrl(raw, { allowPrivate: true, resolver })).rejects.toThrow(NotPublicAddressError);
    }
  });
});

describe('parseWebhookUrl', () => {
  it('returns the normalised URL of a public name and checks no DNS', () => {
    expect(parseWebhookUrl('HTTPS://Hooks.Example.COM/in').href).toBe('https://hooks.example.com/in');
  });

  it('throws NotPublicAddressError synchronously for numeric loopback hosts', () => {
    expect(() => parseWebhookUrl('http://0x7f000001/')).toThrow(NotPublicAddressError);
  });
});

describe('isPublicIp', () => {
  it.each([
    ['8.8.8.8', true],
    ['93.184.216.34', true],
    ['2606:4700::1111', true],
    ['2a00:1450:4001::200e', true],
    // IPv4-mapped / IPv4-compatible: judged by the embedded IPv4
    ['::ffff:8.8.8.8', true],
    ['::ffff:808:808', true],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['::808:808', true],
    ['::127.0.0.1', false],
    ['::a00:1', false],
    // NAT64 well-known prefix: the last 32 bits
    ['64:ff9b::808:808', true],
    ['64:ff9b::8.8.8.8', true],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::a9fe:a9fe', false],
    // local-use NAT64 (RFC 8215): never public
    ['64:ff9b:1::808:808', false],
    // 6to4: bits 16..48
    ['2002:808:808::', true],
    ['2002:7f00:1::', false],
    ['2002:c0a8:101::1', false],
    ['2002:a9fe:a9fe::', false],
    // Teredo: refused whatever it embeds
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['2001::808:808', false],
    // zone ids, non-canonical and non-addresses
    ['fe80::1%eth0', false],
    ['2606:4700::1111%eth0', false],
    ['0177.0.0.1', false],
    ['0x7f000001', false],
    ['2130706433', false],
    ['127.1', false],
    ['example.com', false],
    ['', false],
  ])('%s → %s', (ip, expected) => {
    expect(isPublicIp(ip)).toBe(expected);
  });
});

describe('pinnedLookup', () => {
  const pinned = [v4('8.8.8.8'), v6('2606:4700::1111')];

  const call = (options: Parameters<ReturnType<typeof pinnedLookup>>[1]) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) => {
      pinnedLookup(pinned)('rebind.test', options, (err, address, family) => resolve({ err, address, family }));
    });

  it('answers all pinned addresses when options.all is set', async () => {
    expect(await call({ all: true })).toEqual({ err: null, address: pinned, family: undefined });
  });

  it('answers the first pinned address in the single form, honouring family', async () => {
    expect(await call({})).toEqual({ err: null, address: '8.8.8.8', family: 4 });
    expect(await call({ family: 6 })).toEqual({ err: null, address: '2606:4700::1111', family: 6 });
    expect(await call({ family: 6, all: true })).toMatchObject({ address: [v6('2606:4700::1111')] });
    expect(await call(4)).toEqual({ err: null, address: '8.8.8.8', family: 4 });
  });

  it('accepts the callback as second argument', async () => {
    const res = await new Promise((resolve) => pinnedLookup(pinned)('x', (_e, address) => resolve(address)));
    expect(res).toBe('8.8.8.8');
  });

  it('reports ENOTFOUND when no pinned address fits the family', async () => {
    const res = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      pinnedLookup([v4('8.8.8.8')])('x', { family: 6 }, (err) => resolve(err)),
    );
    expect(res?.code).toBe('ENOTFOUND');
  });

  it('is what net.connect uses: a made-up name connects to the pinned 127.0.0.1', async () => {
    const server = net.createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    try {
      const remote = await new Promise<string | undefined>((resolve, reject) => {
        const sock = net.connect({ host: 'never-resolved.invalid', port, lookup: pinnedLookup([v4('127.0.0.1')]) });
        sock.on('connect', () => {
          resolve(sock.remoteAddress);
          sock.destroy();
        });
        sock.on('error', reject);
      });
      expect(remote).toBe('127.0.0.1');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
