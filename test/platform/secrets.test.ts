import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../platform/config';
import { createSecretBox, parseSecretsKey } from '../../platform/secrets';

// Secrets at rest (platform/secrets.ts, docs/api/data-sources.md): AES-256-GCM under SVC_SECRETS_KEY.
describe('secret box', () => {
  const key = randomBytes(32);

  it('seals to a fresh ciphertext each time and opens it again', () => {
    const box = createSecretBox(key);
    const a = box.seal('hunter2-password');
    const b = box.seal('hunter2-password');
    expect(a).not.toBe(b);
    expect(a).not.toContain('hunter2');
    expect(a).toMatch(/^v1\./);
    expect(box.open(a)).toBe('hunter2-password');
    expect(box.open(box.seal(''))).toBe('');
  });

  it('refuses another key, an altered value and anything unsealed', () => {
    const sealed = createSecretBox(key).seal('secret');
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => createSecretBox(key).open(parts.join('.'))).toThrow();
    expect(() => createSecretBox(key).open('plain text')).toThrow('not a sealed secret');
    expect(() => createSecretBox(undefined).seal('x')).toThrow('SVC_SECRETS_KEY');
  });

  it('reads the key as base64 or hex, 32 bytes, and requires it in production', () => {
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(() => parseSecretsKey('short')).toThrow('32 bytes');
    expect(() => loadConfig({ SVC_SECRETS_KEY: 'short' })).toThrow('SVC_SECRETS_KEY');
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('SVC_SECRETS_KEY: required');
    expect(loadConfig({ NODE_ENV: 'production', SVC_SECRETS_KEY: key.toString('base64') }).secretsKey).toEqual(key);
    expect(loadConfig({}).secretsKey).toBeUndefined();
  });
});
