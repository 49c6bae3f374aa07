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

  it('limits session callers to SVC_SESSION_RATE_PER_MIN requests a minute, 120 by default', () => {
    expect(loadConfig({}).sessionRatePerMin).toBe(120);
    expect(loadConfig({ SVC_SESSION_RATE_PER_MIN: '30' }).sessionRatePerMin).toBe(30);
    expect(() => loadConfig({ SVC_SESSION_RATE_PER_MIN: '0' })).toThrow(/SVC_SESSION_RATE_PER_MIN/);
  });
});
