import { randomBytes } from 'node:crypto';
import { startDnsServer, type DnsServer } from './dnsServer';

/**
 * jest's globalSetup and globalTeardown: one DNS server on 127.0.0.1 for the whole run, exported as
 * SVC_DNS_SERVERS before the test workers start, so every `loadConfig(process.env)` of a test resolves names
 * through it and no DNS query leaves the machine (docs/architecture.md). Any SVC_DNS_SERVERS of the caller's
 * shell is replaced: the tests' names are those of TEST_DNS_TABLE.
 */
const holder = globalThis as typeof globalThis & { svcTestDns?: DnsServer };

export async function setup(): Promise<void> {
  holder.svcTestDns = await startDnsServer();
  process.env.SVC_DNS_SERVERS = holder.svcTestDns.address;
  // data sources' secrets (platform/secrets.ts): `npm test` exports a key; jest run alone gets one here
  process.env.SVC_SECRETS_KEY ||= randomBytes(32).toString('base64');
  // no test reaches a real phone provider: one that does not set its fake finds nothing listening here
  process.env.SVC_TWILIO_API_URL = 'http://127.0.0.1:9';
}

export async function teardown(): Promise<void> {
  await holder.svcTestDns?.close();
  holder.svcTestDns = undefined;
}
