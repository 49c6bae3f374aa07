import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (data sources' passwords, and any later credential): AES-256-GCM under the key of
 * `SVC_SECRETS_KEY` (32 bytes, base64 or hex). A sealed value is `v1.<iv>.<tag>.<ciphertext>` in
 * base64url, so it fits a text column; the tag makes any tampering or a wrong key fail loudly.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  /** @throws Error when the value was sealed under another key or altered. */
  open(sealed: string): string;
}

const VERSION = 'v1';

/**
 * Decodes `SVC_SECRETS_KEY`: 64 hex digits or base64 of exactly 32 bytes.
 * @throws Error naming the variable for anything else
 */
export function parseSecretsKey(value: string): Buffer {
  const text = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('SVC_SECRETS_KEY must be 32 bytes, as base64 or 64 hex digits');
  return key;
}

/** A box over `key`; with no key every use throws, naming the variable to set. */
export function createSecretBox(key: Buffer | undefined): SecretBox {
  const need = (): Buffer => {
    if (!key) throw new Error('SVC_SECRETS_KEY is not set: secrets cannot be stored or read');
    return key;
  };
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', need(), iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
        throw new Error('not a sealed secret');
      }
      const decipher = createDecipheriv('aes-256-gcm', need(), Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
