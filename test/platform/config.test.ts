import path from 'node:path';
import { loadConfig } from '../../platform/config';

// README configuration table: settings are read and validated once, a bad value names its variable.
describe('configuration', () => {
  it('reads SVC_OPENAI_MODELS with a price pair per model, bare names at the default prices', () => {
    const models = (v: string, more: Record<string, string> = {}) =>
      loadConfig({ SVC_OPENAI_MODELS: v, ...more }).openai.models;
    expect(models('gpt-4o-mini:0.15:0.60, gpt-4o:2.5:10')).toEqual([
      { name: 'gpt-4o-mini', inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 },
      { name: 'gpt-4o', inputPerMTokUsd: 2.5, outputPerMTokUsd: 10 },
    ]);
    expect(models('llama3:8b:0:0,llama3:8b-instruct')).toEqual([
      { name: 'llama3:8b', inputPerMTokUsd: 0, outputPerMTokUsd: 0 },
      { name: 'llama3:8b-instruct', inputPerMTokUsd: 0, outputPerMTokUsd: 0 },
    ]);
    const old = { SVC_OPENAI_INPUT_PER_MTOK_USD: '1', SVC_OPENAI_OUTPUT_PER_MTOK_USD: '3' };
    expect(models('a,b:0.5:1', old)).toEqual([
      { name: 'a', inputPerMTokUsd: 1, outputPerMTokUsd: 3 },
      { name: 'b', inputPerMTokUsd: 0.5, outputPerMTokUsd: 1 },
    ]);
    expect(() => models('gpt-4o:2.5')).toThrow(/SVC_OPENAI_MODELS: "gpt-4o:2.5" has one price/);
    expect(() => models('a,a:1:2')).toThrow(/SVC_OPENAI_MODELS: model "a" is listed twice/);
    expect(() => models(':1:2')).toThrow(/SVC_OPENAI_MODELS: ":1:2" has no model name/);
  });

  it('accepts SVC_ASSISTANT_MODEL only as one of the configured OpenAI models', () => {
    const env = { SVC_OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', SVC_OPENAI_MODELS: 'helper:0.1:0.2' };
    expect(loadConfig({ ...env, SVC_ASSISTANT_MODEL: 'openai/helper' }).openai.assistantModel).toBe('openai/helper');
    expect(loadConfig(env).openai.assistantModel).toBeUndefined();
    for (const bad of ['openai/other', 'helper', 'builtin/echo']) {
      expect(() => loadConfig({ ...env, SVC_ASSISTANT_MODEL: bad })).toThrow(/SVC_ASSISTANT_MODEL/);
    }
    expect(() => loadConfig({ SVC_OPENAI_MODELS: 'helper', SVC_ASSISTANT_MODEL: 'openai/helper' })).toThrow(
      /SVC_ASSISTANT_MODEL/,
    );
  });

  it('reads the S3 settings, credentials only as a pair', () => {
    const c = loadConfig({
      SVC_STORAGE_URL: 's3://bucket/prefix',
      SVC_S3_ENDPOINT: 'http://127.0.0.1:9000',
      SVC_S3_FORCE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    expect(c.storageUrl).toBe('s3://bucket/prefix');
    expect(c.s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    expect(loadConfig({ AWS_ACCESS_KEY_ID: 'id' }).s3.credentials).toBeUndefined();
    expect(() => loadConfig({ SVC_S3_ENDPOINT: 'not a url' })).toThrow(/SVC_S3_ENDPOINT/);
  });
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
