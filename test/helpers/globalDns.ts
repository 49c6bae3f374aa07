import { randomBytes } from 'node:crypto';
import { startDnsServer, type DnsServer } from './dnsServer';
import { startMoto, type MotoServer } from './motoServer';

/**
 * jest's globalSetup and globalTeardown: one DNS server on 127.0.0.1 for the whole run, exported as
 * SVC_DNS_SERVERS before the test workers start, so every `loadConfig(process.env)` of a test resolves names
 * through it and no DNS query leaves the machine (docs/architecture.md). Any SVC_DNS_SERVERS of the caller's
 * shell is replaced: the tests' names are those of TEST_DNS_TABLE.
 */
const holder = globalThis as typeof globalThis & { svcTestDns?: DnsServer; svcTestMoto?: MotoServer };

export async function setup(): Promise<void> {
  holder.svcTestDns = await startDnsServer();
  process.env.SVC_DNS_SERVERS = holder.svcTestDns.address;
  // data sources' secrets (platform/secrets.ts): `npm test` exports a key; jest run alone gets one here
  process.env.SVC_SECRETS_KEY ||= randomBytes(32).toString('base64');
  // no test reaches a real phone provider: one that does not set its fake finds nothing listening here
  process.env.SVC_TWILIO_API_URL = 'http://127.0.0.1:9';
  // SVC_TEST_STORAGE=s3 (npm run test:s3): every test's file bytes go to a moto S3 server instead of a directory
  if (process.env.SVC_TEST_STORAGE === 's3') {
    const moto = (holder.svcTestMoto = await startMoto());
    process.env.SVC_STORAGE_URL = `s3://${moto.bucket}/test`;
    process.env.SVC_S3_ENDPOINT = moto.endpoint;
    process.env.SVC_S3_REGION = moto.settings.region;
    process.env.SVC_S3_FORCE_PATH_STYLE = '1';
    process.env.AWS_ACCESS_KEY_ID = moto.settings.credentials?.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = moto.settings.credentials?.secretAccessKey;
  }
}

export async function teardown(): Promise<void> {
  await holder.svcTestDns?.close();
  holder.svcTestDns = undefined;
  await holder.svcTestMoto?.stop();
  holder.svcTestMoto = undefined;
}
