import path from 'node:path';
import { loadConfig } from '../../platform/config';

// README configuration table: settings are read and validated once, a bad value names its variable.
describe('configuration', () => {
  it('reads SVC_TRUST_PROXY as a number of trusted proxy hops, accepting the old switch values', () => {
    const hops = (v: string | undefined) => loadConfig({ SVC_TRUST_PROXY: v }).trustProxyHops;
    expect(hops(undefined)).toBe(0);
    for (const off of ['', '0', 'false']) expect(hops(off)).toBe(0);
    for (const one of ['1', 'true']) expect(hops(one)).toBe(1);
    expect(hops('2')).toBe(2);
    for (const bad of ['yes', '-1', '1.5', 'two']) expect(() => hops(bad)).toThrow(/SVC_TRUST_PROXY/);
  });

  it('reads SVC_DNS_SERVERS as a comma list of servers, empty (the system resolver) by default', () => {
    expect(loadConfig({}).dnsServers).toEqual([]);
    expect(loadConfig({ SVC_DNS_SERVERS: '' }).dnsServers).toEqual([]);
    expect(loadConfig({ SVC_DNS_SERVERS: ' 127.0.0.1:5353, [::1]:53 ,9.9.9.9' }).dnsServers).toEqual([
      '127.0.0.1:5353',
      '[::1]:53',
      '9.9.9.9',
    ]);
    for (const bad of ['localhost', 'dns.example:53', '127.0.0.1:0', '1.2.3.4:x']) {
      expect(() => loadConfig({ SVC_DNS_SERVERS: bad })).toThrow(/SVC_DNS_SERVERS/);
    }
  });

  it('limits session callers to SVC_SESSION_RATE_PER_MIN requests a minute, 120 by default', () => {
    expect(loadConfig({}).sessionRatePerMin).toBe(120);
    expect(loadConfig({ SVC_SESSION_RATE_PER_MIN: '30' }).sessionRatePerMin).toBe(30);
    expect(() => loadConfig({ SVC_SESSION_RATE_PER_MIN: '0' })).toThrow(/SVC_SESSION_RATE_PER_MIN/);
  });

  it("reads the console's settings: SVC_CONSOLE_DIR and SVC_TEMPORAL_UI_URL (docs/console.md)", () => {
    const defaults = loadConfig({});
    expect(defaults.consoleDir).toBe(path.resolve(process.cwd(), 'console/dist'));
    expect(defaults.temporalUiUrl).toBeUndefined();
    expect(loadConfig({ SVC_CONSOLE_DIR: '/srv/console' }).consoleDir).toBe('/srv/console');
    expect(loadConfig({ SVC_TEMPORAL_UI_URL: 'http://127.0.0.1:8233/' }).temporalUiUrl).toBe('http://127.0.0.1:8233');
    expect(loadConfig({ SVC_TEMPORAL_UI_URL: '' }).temporalUiUrl).toBeUndefined();
    expect(() => loadConfig({ SVC_TEMPORAL_UI_URL: 'not a url' })).toThrow(/SVC_TEMPORAL_UI_URL/);
  });

  it('builds URLs from SVC_PUBLIC_URL and always allows its origin for console writes', () => {
    const plain = loadConfig({ PORT: '3950' });
    expect(plain.publicUrl).toBe('http://127.0.0.1:3950');
    expect(plain.consoleOrigins).toEqual(['http://127.0.0.1:3950', 'http://localhost:3950']);
    const set = loadConfig({ SVC_PUBLIC_URL: 'https://svc.example.com/', SVC_CONSOLE_ORIGINS: 'https://a.example' });
    expect(set.publicUrl).toBe('https://svc.example.com');
    expect(set.consoleOrigins).toEqual(['https://svc.example.com', 'https://a.example']);
    expect(() => loadConfig({ SVC_PUBLIC_URL: 'svc.example.com' })).toThrow(/SVC_PUBLIC_URL/);
    expect(loadConfig({}).minScheduleMinutes).toBe(5);
    expect(loadConfig({}).appUploadTotalBytes).toBe(10 * 1024 * 1024);
  });
});
