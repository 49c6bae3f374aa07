import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createResolver, isDnsServer } from '../../../platform/net/dnsServers';
import { NotPublicAddressError, defaultResolver, resolvePublicUrl } from '../../../platform/net/publicAddress';
import { safeRequest } from '../../../platform/net/safeHttp';
import { createToolRegistry } from '../../../domain/tools/registry';
import { startDnsServer, type DnsServer } from '../../helpers/dnsServer';

// SVC_DNS_SERVERS (docs/architecture.md): the guard asks exactly the configured servers, here a real one on 127.0.0.1.

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer({
    'only-here.test': { A: ['93.184.215.14'], AAAA: ['2606:2800:21f:cb07:6820:80da:af6b:1c49'] },
    'v6-only.test': { AAAA: ['2606:2800:21f:cb07:6820:80da:af6b:1c49'] },
    'private.test': { A: ['10.0.0.1'] },
    'private6.test': { A: ['93.184.215.14'], AAAA: ['fd00::1'] },
    'loopback.test': { A: ['127.0.0.1'] },
    'rebind.test': { A: ['93.184.215.14'] },
    'silent.test': { silent: true },
  });
});
afterAll(() => dns.close());
beforeEach(() => dns.queries.splice(0));

const guard = (url: string, allowPrivate = false) =>
  resolvePublicUrl(url, { allowPrivate, resolver: createResolver([dns.address]) });
const reason = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: unknown) => (e instanceof NotPublicAddressError ? e.reason : `other: ${(e as Error).message}`),
  );

describe('createResolver with SVC_DNS_SERVERS', () => {
  it('resolves a name only the configured server knows, merging A and AAAA answers', async () => {
    const { addresses } = await guard('https://only-here.test/h');
    expect(addresses).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:1c49', family: 6 },
    ]);
    expect(dns.queries).toEqual(
      expect.arrayContaining([
        { name: 'only-here.test', type: 'A' },
        { name: 'only-here.test', type: 'AAAA' },
      ]),
    );
  });

  it('takes a name with only AAAA records (the A query is NODATA)', async () => {
    const { addresses } = await guard('https://v6-only.test/');
    expect(addresses).toEqual([{ address: '2606:2800:21f:cb07:6820:80da:af6b:1c49', family: 6 }]);
  });

  it('refuses a name the server does not know as not resolving', async () => {
    expect(await reason(guard('https://nowhere.test/'))).toBe('hostname nowhere.test does not resolve');
    expect(dns.queries.map((q) => q.name)).toContain('nowhere.test');
  });

  it('refuses a private answer, also when it is only the AAAA one', async () => {
    expect(await reason(guard('https://private.test/'))).toBe(
      'hostname private.test resolves to a private address 10.0.0.1',
    );
    expect(await reason(guard('https://private6.test/'))).toMatch(/resolves to a unique-local address fd00::1/);
    expect(await reason(guard('https://loopback.test/'))).toMatch(/loopback address 127\.0\.0\.1/);
  });

  it('never asks the server about an IP literal', async () => {
    await guard('https://93.184.215.14/');
    await guard('https://[2606:2800:21f:cb07:6820:80da:af6b:1c49]/');
    expect(dns.queries).toEqual([]);
  });

  it('fails (not "does not resolve") when the server does not answer, within a few seconds', async () => {
    const started = Date.now();
    const err = await guard('https://silent.test/').catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(NotPublicAddressError);
    expect((err as NodeJS.ErrnoException).code).toBe('ETIMEOUT');
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('fails when the server is not there', async () => {
    const gone = await startDnsServer({});
    const address = gone.address;
    await gone.close();
    const err = await resolvePublicUrl('https://only-here.test/', {
      allowPrivate: false,
      resolver: createResolver([address]),
    }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(NotPublicAddressError);
    expect((err as NodeJS.ErrnoException).code).toMatch(/^E(CONNREFUSED|TIMEOUT)$/);
  });

  it('is the system resolver when no server is configured', () => {
    expect(createResolver([])).toBe(defaultResolver);
  });

  it('accepts ip, ipv4:port and [ipv6]:port entries only', () => {
    for (const ok of ['127.0.0.1', '127.0.0.1:5353', '::1', '[::1]:53', '[2001:db8::1]:65535']) {
      expect(isDnsServer(ok)).toBe(true);
    }
    for (const bad of ['localhost', 'localhost:53', '127.0.0.1:0', '127.0.0.1:65536', '::1:53x', '[127.0.0.1]:53']) {
      expect(isDnsServer(bad)).toBe(false);
    }
  });
});

describe('a name from the configured server, pinned', () => {
  let server: http.Server;
  let port: number;
  const hosts: Array<string | undefined> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hosts.push(req.headers.host);
      res.end('hi');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('connects to the answer it checked, for the guard and for the http_request tool alike', async () => {
    dns.table['rebind.test'] = { A: ['127.0.0.1'] }; // was public when the suite started
    const resolver = createResolver([dns.address]);
    const { addresses } = await resolvePublicUrl(`http://rebind.test:${port}/`, { allowPrivate: true, resolver });
    expect(addresses).toEqual([{ address: '127.0.0.1', family: 4 }]);
    // the tool goes through the same resolver (SVC_DNS_SERVERS reaches createToolRegistry)
    const tools = createToolRegistry({ allowPrivate: true, resolver });
    const out = JSON.parse(
      await tools.run({ id: 'c1', name: 'http_request', args: { url: `http://rebind.test:${port}/x` } }),
    );
    expect(out).toMatchObject({ status: 200, body: 'hi' });
    expect(hosts).toEqual([`rebind.test:${port}`]);
    // with the guard on, a private answer is refused before any connection
    await expect(
      safeRequest(`http://rebind.test:${port}/`, { method: 'GET', timeoutMs: 5000, allowPrivate: false, resolver }),
    ).rejects.toThrow(NotPublicAddressError);
    expect(hosts).toHaveLength(1);
  });
});
