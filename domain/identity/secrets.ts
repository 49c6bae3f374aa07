import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

// Algorithm is a const enum, which isolated-module builds cannot read: 2 is Algorithm.Argon2id.
const ARGON2ID = 2 as Algorithm;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 of the given bytes (big-endian), used for key plaintexts. */
export function base62(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out || '0';
}

export const API_KEY_PREFIX = 'svc_live_';

/** An API key's plaintext: `svc_live_` + 32 random bytes in base62. */
export function newApiKeyPlaintext(): string {
  return API_KEY_PREFIX + base62(randomBytes(32));
}

/** A session token is 32 random bytes; the cookie carries it base64url-encoded. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Keys and session tokens are high-entropy, so a plain SHA-256 is the right at-rest form. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Passwords are low-entropy: argon2id with OWASP's minimum profile (19 MiB, t=2). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 });
}

// A real hash to verify against when the e-mail is unknown, so both failures cost the same time.
let dummyHash: Promise<string> | undefined;

/** Verifies a password; with no stored hash it still spends one verification, then returns false. */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
