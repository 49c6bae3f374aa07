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
    for (const image of images) expect(image).toMatch(/:(\d|\$\{[A-Z_]+:-\d)/);
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM node:\d+\.\d+\.\d+-/m);
  });

  it('gives the API a health check and starts it only after the migration and Temporal are ready', () => {
    const { text } = composeSettings();
    const api = text.slice(text.indexOf('\n  api:\n'), text.indexOf('\n  worker:\n'));
    expect(api).toContain('healthcheck:');
    expect(api).toMatch(/migrate:\s+condition: service_completed_successfully/);
    expect(api).toMatch(/temporal-setup:\s+condition: service_completed_successfully/);
  });
});
