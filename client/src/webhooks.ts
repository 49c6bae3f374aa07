/**
 * Receiver-side verification of webhook deliveries (spec §6 "Receiver verification").
 * Header `X-SVC-Signature: t=<unix_seconds>,v1=<hex>`, where `v1` = HMAC-SHA256(secret, `${t}.${rawBody}`).
 */
import { loadNodeCrypto } from './runtime.js';

/** Name of the header carrying the signature (HTTP header names are case-insensitive). */
export const SIGNATURE_HEADER = 'X-SVC-Signature';

/** Options of {@link verifyWebhookSignature}. */
export interface VerifyOptions {
  /** Largest accepted difference between `t` and now, in seconds (spec §6: 300). */
  toleranceSec?: number;
  /** Current time in unix seconds; defaults to `Date.now() / 1000`. */
  now?: number;
}

/** The raw request body exactly as received: a string, or bytes (`Uint8Array`, Node `Buffer`, `ArrayBuffer`). */
export type RawBody = string | Uint8Array | ArrayBuffer;

const encoder = new TextEncoder();

/**
 * Checks a webhook delivery's `X-SVC-Signature` header against the raw body.
 *
 * Async because Web Crypto's HMAC is async; on Node the `node:crypto` module is used instead.
 * Pass the body bytes exactly as received, before any JSON parsing: re-serialising a parsed body
 * changes the bytes and the signature no longer matches.
 *
 * Resolves `false` (never throws for bad input) when the header lacks `t` or `v1`, `t` is not an
 * integer, `t` is more than `toleranceSec` away from now in either direction, `v1` is not valid hex,
 * or the digest differs (compared in constant time after a length check).
 *
 * @param secret - the secret given when the webhook was created
 * @param header - value of the `X-SVC-Signature` header (`t=<unix>,v1=<hex>`; order and extra parts ignored)
 * @param rawBody - the request body as received
 */
export async function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  rawBody: RawBody,
  options: VerifyOptions = {},
): Promise<boolean> {
  const { toleranceSec = 300, now = Date.now() / 1000 } = options;
  if (typeof header !== 'string' || typeof secret !== 'string') return false;
  const parts = parseSignatureHeader(header);
  if (parts.t === undefined || parts.v1 === undefined || !/^\d+$/.test(parts.t)) return false;
  const timestamp = Number(parts.t);
  if (!Number.isSafeInteger(timestamp) || !(Math.abs(now - timestamp) <= toleranceSec)) return false;
  const expected = hexToBytes(parts.v1);
  if (!expected) return false;
  const signed = concatBytes(encoder.encode(`${parts.t}.`), toBytes(rawBody));
  const actual = await hmacSha256(encoder.encode(secret), signed);
  return await constantTimeEqual(actual, expected);
}

/**
 * Computes the `X-SVC-Signature` header value for a body, as the service does. Useful for tests of a
 * receiver. `timestamp` defaults to now (unix seconds).
 */
export async function signWebhookPayload(secret: string, rawBody: RawBody, timestamp?: number): Promise<string> {
  const t = Math.floor(timestamp ?? Date.now() / 1000);
  const digest = await hmacSha256(encoder.encode(secret), concatBytes(encoder.encode(`${t}.`), toBytes(rawBody)));
  return `t=${t},v1=${bytesToHex(digest)}`;
}

/** Splits `k=v,k=v`; the first occurrence of each key wins, unknown keys are kept but unused. */
function parseSignatureHeader(header: string): Record<string, string | undefined> {
  const parts: Record<string, string | undefined> = {};
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) continue;
    const key = item.slice(0, eq).trim();
    if (!(key in parts)) parts[key] = item.slice(eq + 1).trim();
  }
  return parts;
}

function toBytes(body: RawBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(body);
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Decodes hex (either case); `undefined` for odd length, empty or non-hex input. */
function hexToBytes(hex: string): Uint8Array | undefined {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

async function hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const node = await loadNodeCrypto();
  if (node) return new Uint8Array(node.createHmac('sha256', key).update(data).digest());
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('Neither node:crypto nor Web Crypto (crypto.subtle) is available');
  const cryptoKey = await subtle.importKey('raw', new Uint8Array(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await subtle.sign('HMAC', cryptoKey, new Uint8Array(data)));
}

/** Length check first (lengths are not secret), then a comparison whose time does not depend on the bytes. */
async function constantTimeEqual(a: Uint8Array, b: Uint8Array): Promise<boolean> {
  if (a.length !== b.length) return false;
  const node = await loadNodeCrypto();
  if (node) return node.timingSafeEqual(a, b);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
