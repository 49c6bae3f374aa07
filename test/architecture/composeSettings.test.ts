import { readFileSync } from 'node:fs';
import path from 'node:path';

// docker-compose.yml cannot run here (no Docker engine), so this holds what can be checked without one: the
// production shape names every setting the processes read (platform/config.ts), so an operator can set any of
// them in .env, and a setting added to the code without a line in the compose file fails here.
const ROOT = path.join(__dirname, '..', '..');

/** Settings the compose file deliberately does not pass through, and why. */
const NOT_PASSED: Record<string, string> = {
  NODE_ENV: 'the image sets production',
  PORT: 'set per service (the API listens on 3000)',
  HOST: 'the image listens on every interface',
  SVC_CONSOLE_DIR: 'the image carries the built console where the default points',
  SVC_ALLOW_PRIVATE_EGRESS: 'local development only: production never reaches private addresses',
  SVC_ALLOW_PRIVATE_WEBHOOKS: 'local development only (the specification says so)',
  SVC_MAIL_DIR: 'the fallback while SVC_SMTP_URL is unset, for local development (docs/operations.md#mail)',
};

/** The top-level keys of `const envSchema = z.object({ … })` in platform/config.ts. */
function settingsRead(): string[] {
  const text = readFileSync(path.join(ROOT, 'platform', 'config.ts'), 'utf8');
  const start = text.indexOf('const envSchema = z.object({');
  const end = text.indexOf('\n});', start);
  expect(start).toBeGreaterThan(0);
  return [...text.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]);
}

/** The keys of the `x-svc-env` block that the migration, the API and the worker share. */
function composeSettings(): { keys: string[]; text: string } {
  const text = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
  const start = text.indexOf('\nx-svc-env: &svc-env\n');
  const end = text.indexOf('\nservices:\n', start);
  expect(start).toBeGreaterThan(0);
  const block = text.slice(start, end);
  return { keys: [...block.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]), text };
}

describe('docker-compose.yml', () => {
  it('passes every setting the processes read, or says why not', () => {
    const read = settingsRead();
    expect(read.length).toBeGreaterThan(40);
    const { keys } = composeSettings();
    const missing = read.filter((k) => !keys.includes(k) && !(k in NOT_PASSED));
    expect(missing).toEqual([]);
    // an exception for a setting the code no longer reads is stale
    expect(Object.keys(NOT_PASSED).filter((k) => !read.includes(k))).toEqual([]);
    expect(keys.filter((k) => !read.includes(k))).toEqual([]);
  });

  it('requires the secrets key, and pins every image it pulls', () => {
    const { text } = composeSettings();
    expect(text).toMatch(/SVC_SECRETS_KEY: \$\{SVC_SECRETS_KEY:\?/);
    const images = [...text.matchAll(/^ +image: (\S+)$/gm)].map((m) => m[1]).filter((i) => i !== 'svc:latest');
    expect(images.length).toBeGreaterThan(3);
    // a version number, or MinIO's dated release names (it publishes no version numbers)
    for (const image of images) expect(image).toMatch(/:(?:\$\{[A-Z_]+:-)?(?:\d|RELEASE\.\d{4}-)/);
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM node:\d+\.\d+\.\d+-/m);
  });

  it('runs two health-checked APIs and two workers on the shared settings, started after the migration, Temporal and the bucket', () => {
    const { text } = composeSettings();
    const api = block(text, '\nx-svc-api: &svc-api\n');
    expect(api).toContain('<<: *svc-env');
    expect(api).toContain('healthcheck:');
    for (const job of ['migrate', 'temporal-setup', 'storage-setup']) {
      expect(api).toMatch(new RegExp(`${job}:\\s+condition: service_completed_successfully`));
    }
    const worker = block(text, '\nx-svc-worker: &svc-worker\n');
    expect(worker).toContain('<<: *svc-env');
    expect(worker).toContain('dist/worker/main.js');
    for (const name of ['api-1', 'api-2']) expect(text).toContain(`\n  ${name}:\n    <<: *svc-api\n`);
    for (const name of ['worker-1', 'worker-2']) expect(text).toContain(`\n  ${name}:\n    <<: *svc-worker\n`);
  });

  it('puts one entry point before both APIs, streaming bodies and trusting it as one proxy hop', () => {
    const { text } = composeSettings();
    const entry = block(text, '\n  entry:\n');
    expect(entry).toContain('healthcheck:');
    expect(entry).toMatch(/api-1:\s+condition: service_healthy/);
    expect(entry).toMatch(/api-2:\s+condition: service_healthy/);
    const nginx = text.slice(text.indexOf('\n  entry-nginx:\n'));
    expect(nginx).toContain('server api-1:3000');
    expect(nginx).toContain('server api-2:3000');
    expect(nginx).toContain('proxy_request_buffering off;');
    expect(nginx).toContain('proxy_buffering off;');
    expect(nginx).toContain('$$proxy_add_x_forwarded_for');
    expect(text).toMatch(/^ {2}SVC_TRUST_PROXY: \$\{SVC_TRUST_PROXY:-1\}$/m);
  });

  it('shares S3-compatible storage and a Temporal server on PostgreSQL with more than one history shard', () => {
    const { text } = composeSettings();
    // file:// storage would be one replica's disk: a file uploaded through one API unreadable by the other
    expect(text).toMatch(/^ {2}SVC_STORAGE_URL: \$\{SVC_STORAGE_URL:-s3:\/\/[a-z0-9-]+/m);
    expect(text).toMatch(/^ {2}SVC_S3_ENDPOINT: \$\{SVC_S3_ENDPOINT:-http:\/\/minio:9000\}$/m);
    expect(block(text, '\n  storage-setup:\n')).toContain('mc mb --ignore-existing');
    const temporal = block(text, '\n  temporal:\n');
    expect(temporal).toContain('DB: postgres12');
    expect(Number(/NUM_HISTORY_SHARDS: "(\d+)"/.exec(temporal)?.[1])).toBeGreaterThan(1);
    const schema = block(text, '\n  temporal-schema:\n');
    expect(schema).toContain('setup-schema');
    expect(schema).toContain('update-schema');
  });
});

/** From `start` up to the next line at the same or a lower indentation (the end of that YAML block). */
function block(text: string, start: string): string {
  const at = text.indexOf(start);
  expect(at).toBeGreaterThanOrEqual(0);
  const indent = /^\n( *)/.exec(start)![1].length;
  const rest = text.slice(at + start.length).split('\n');
  const end = rest.findIndex(
    (line) =>
      line.trim() !== '' &&
      line.length - line.trimStart().length <= indent &&
      !line.startsWith(' '.repeat(indent) + '#'),
  );
  return start + rest.slice(0, end === -1 ? undefined : end).join('\n');
}
