import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (every stored credential: data sources' passwords, webhook and output-connection secrets,
 * WhatsApp and phone provider credentials) and Temporal payloads (platform/temporal/payloadCodec.ts) are
 * AES-256-GCM under `SVC_SECRETS_KEY`; `SVC_SECRETS_KEYS` lists earlier keys that still open what they
 * sealed until `npm run admin -- secrets:rotate` has re-sealed it (docs/architecture.md, "Secrets").
 *
 * A sealed value is `v2.<kid>.<iv>.<ciphertext>.<tag>` (base64url parts): `kid` names the key, the tag is
 * always 16 bytes, and the associated data is the row's identity (`<table>:<id>:<column>`), so a value
 * copied to another row or column does not open.
 */
export interface SecretKey {
  /** First 8 hex digits of the key's SHA-256: names the key in what it sealed without revealing it. */
  kid: string;
  key: Buffer;
}

/** The current key (seals) and earlier ones (open only). */
export interface SecretKeyRing {
  current: SecretKey;
  previous: SecretKey[];
}

/** Where a secret lives; its identity is bound into the ciphertext. */
export interface SecretSlot {
  table: string;
  id: string;
  column: string;
}

/** What a stored value holds before it is opened: which format and whether the current key sealed it. */
export type SealedState = 'current' | 'old-key' | 'legacy' | 'plaintext' | 'empty';

export interface SecretBox {
  seal(plaintext: string, slot: SecretSlot): string;
  /**
   * Opens a stored value. Besides the current format it reads what earlier releases stored, until the
   * rotation command re-seals it: `v1.<iv>.<tag>.<ct>` (no key id, no row binding) and, for columns that
   * used to hold plaintext (`legacyPlaintext`), the plaintext itself. An empty value opens to ''.
   * @throws SecretError when the value was sealed for another row, under an unknown key, or altered
   */
  open(stored: string, slot: SecretSlot, opts?: { legacyPlaintext?: boolean }): string;
  /** The state of a stored value, so the rotation command knows what to re-seal. */
  state(stored: string): SealedState;
}

/** A stored secret that cannot be opened; its message never contains the value. */
export class SecretError extends Error {}

const VERSION = 'v2';
const LEGACY_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key id of a key: first 8 hex digits of its SHA-256. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * Decodes one key: 64 hex digits or base64 of exactly 32 bytes.
 * @throws Error naming `variable` for anything else
 */
export function parseSecretsKey(value: string, variable = 'SVC_SECRETS_KEY'): Buffer {
  const text = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error(`${variable} must be 32 bytes, as base64 or 64 hex digits`);
  return key;
}

/**
 * The key ring of `SVC_SECRETS_KEY` (current) and `SVC_SECRETS_KEYS` (comma-separated earlier keys).
 * @throws Error naming the variable when a key is malformed
 */
export function parseKeyRing(current: string, previous = ''): SecretKeyRing {
  const key = parseSecretsKey(current);
  const old = previous
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => parseSecretsKey(s, 'SVC_SECRETS_KEYS'));
  const ring = { current: { kid: keyId(key), key }, previous: old.map((k) => ({ kid: keyId(k), key: k })) };
  ring.previous = ring.previous.filter((k) => k.kid !== ring.current.kid);
  return ring;
}

/** Every key of a ring, current first. */
export function allKeys(ring: SecretKeyRing): SecretKey[] {
  return [ring.current, ...ring.previous];
}

/**
 * A key for one purpose derived from a ring key (HKDF-SHA256), so the payload codec and the secrets at rest
 * never share a key while the operator manages one.
 */
export function derivedKey(key: SecretKey, purpose: string): SecretKey {
  return { kid: key.kid, key: Buffer.from(hkdfSync('sha256', key.key, Buffer.alloc(0), purpose, 32)) };
}

/** AES-256-GCM of `plaintext` with a fresh 96-bit IV; returns iv, ciphertext and the 16-byte tag. */
export function gcmSeal(key: Buffer, plaintext: Buffer, ad: Buffer): { iv: Buffer; body: Buffer; tag: Buffer } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(ad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, body, tag: cipher.getAuthTag() };
}

/**
 * Opens AES-256-GCM with the tag length fixed at 16 bytes: a shorter tag would let a forger try fewer guesses.
 * @throws SecretError on a wrong key, altered data, other associated data or a tag of another length
 */
export function gcmOpen(key: Buffer, iv: Buffer, body: Buffer, tag: Buffer, ad: Buffer): Buffer {
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretError('malformed sealed value');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(ad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new SecretError('sealed value does not open: another key, another row, or altered');
  }
}

const slotAd = (slot: SecretSlot) => Buffer.from(`${slot.table}:${slot.id}:${slot.column}`, 'utf8');
const b64 = (s: string) => Buffer.from(s, 'base64url');

/** A box over `ring`; with no ring every seal or open throws, naming the variable to set. */
export function createSecretBox(ring: SecretKeyRing | undefined): SecretBox {
  const need = (): SecretKeyRing => {
    if (!ring) throw new SecretError('SVC_SECRETS_KEY is not set: secrets cannot be stored or read');
    return ring;
  };
  const state = (stored: string): SealedState => {
    if (stored === '') return 'empty';
    const [version, kid] = stored.split('.', 2);
    if (version === VERSION) return ring && kid === ring.current.kid ? 'current' : 'old-key';
    if (version === LEGACY_VERSION) return 'legacy';
    return 'plaintext';
  };
  return {
    state,
    seal(plaintext, slot) {
      const { kid, key } = need().current;
      const { iv, body, tag } = gcmSeal(key, Buffer.from(plaintext, 'utf8'), slotAd(slot));
      return [VERSION, kid, iv.toString('base64url'), body.toString('base64url'), tag.toString('base64url')].join('.');
    },
    open(stored, slot, opts = {}) {
      const kind = state(stored);
      if (kind === 'empty') return '';
      if (kind === 'plaintext') {
        if (opts.legacyPlaintext) return stored;
        throw new SecretError('not a sealed secret');
      }
      const keys = allKeys(need());
      const parts = stored.split('.');
      if (kind === 'legacy') {
        const [, iv, tag, body] = parts;
        if (parts.length !== 4) throw new SecretError('malformed sealed value');
        for (const { key } of keys) {
          try {
            return gcmOpen(key, b64(iv), b64(body), b64(tag), Buffer.alloc(0)).toString('utf8');
          } catch {
            // the next key may be the one it was sealed under
          }
        }
        throw new SecretError('sealed value does not open under any configured key');
      }
      const [, kid, iv, body, tag] = parts;
      if (parts.length !== 5) throw new SecretError('malformed sealed value');
      const key = keys.find((k) => k.kid === kid);
      if (!key) throw new SecretError(`sealed under key ${kid}, which is not configured (SVC_SECRETS_KEYS)`);
      return gcmOpen(key.key, b64(iv), b64(body), b64(tag), slotAd(slot)).toString('utf8');
    },
  };
}
