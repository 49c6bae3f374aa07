/**
 * Receiver-side verification of webhook deliveries:
 * `X-SVC-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 * Header `X-SVC-Signature: t=<unix_seconds>,v1=<hex>`, where `v1` = HMAC-SHA256(secret, `${t}.${rawBody}`).
 */
import { hmacSha256 } from './sha256.js';

/** Name of the header carrying the signature (HTTP header names are case-insensitive). */
export const SIGNATURE_HEADER = 'X-SVC-Signature';

/** Options of {@link verifyWebhookSignature}. */
export interface VerifyOptions {
  /** Largest accepted difference between `t` and now, in seconds (300 by default). */
  toleranceSec?: number;
  /** Current time in unix seconds; defaults to `Date.now() / 1000`. */
  now?: number;
}

/** The raw request body exactly as received: a string, or bytes (`Uint8Array`, Node `Buffer`, `ArrayBuffer`). */
export type RawBody = string | Uint8Array | ArrayBuffer;

const encoder = new TextEncoder();

/**
 * Checks a webhook delivery's `X-SVC-Signature` header against the raw body and returns a plain
 * `boolean`, synchronously: there is no Promise to forget to `await`, whose truthiness would
 * accept any delivery. The HMAC-SHA256 is computed in pure TypeScript (`sha256.ts`), so this works the
 * same in Node, browsers and edge runtimes.
 *
 * Pass the body bytes exactly as received, before any JSON parsing:
 * re-serialising a parsed body changes the bytes and the signature no longer matches.
 *
 * Returns `false` (never throws for bad input) when the header lacks `t` or `v1`, `t` is not an
 * integer, `t` is more than `toleranceSec` away from now in either direction, `v1` is not valid hex,
 * or the digest differs (compared in constant time after a length check).
 *
 * @param secret - the secret given when the webhook was created
 * @param header - value of the `X-SVC-Signature` header (`t=<unix>,v1=<hex>`; order and extra parts ignored)
 * @param rawBody - the request body as received
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  rawBody: RawBody,
  options: VerifyOptions = {},
): boolean {
  const { toleranceSec = 300, now = Date.now() / 1000 } = options;
  if (typeof header !== 'string' || typeof secret !== 'string') return false;
  const parts = parseSignatureHeader(header);
  if (parts.t === undefined || parts.v1 === undefined || !/^\d+$/.test(parts.t)) return false;
  const timestamp = Number(parts.t);
  // reject a timestamp more than the tolerance (300 s) away from now, in either direction
  if (!Number.isSafeInteger(timestamp) || !(Math.abs(now - timestamp) <= toleranceSec)) return false;
  const expected = hexToBytes(parts.v1);
  if (!expected) return false;
  const body = toBytes(rawBody);
  if (!body) return false;
  const actual = hmacSha256(encoder.encode(secret), encoder.encode(`${parts.t}.`), body);
  return constantTimeEqual(actual, expected);
}

/**
 * Computes the `X-SVC-Signature` header value for a body, as the service does. Useful for tests of a
 * receiver. `timestamp` defaults to now (unix seconds).
 * @throws {TypeError} when `rawBody` is not a string, typed array or `ArrayBuffer`
 */
export function signWebhookPayload(secret: string, rawBody: RawBody, timestamp?: number): string {
  const t = Math.floor(timestamp ?? Date.now() / 1000);
  const body = toBytes(rawBody);
  if (!body) throw new TypeError('rawBody must be a string, a Uint8Array/Buffer or an ArrayBuffer');
  const digest = hmacSha256(encoder.encode(secret), encoder.encode(`${t}.`), body);
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

/**
 * The body's bytes: a string as UTF-8, a typed array or `Buffer` as its own bytes (no copy), an
 * `ArrayBuffer` wrapped. `undefined` for anything else, e.g. a body a framework already parsed.
 * Checked without `instanceof` so bytes from another realm (iframe, vm context) are accepted too.
 */
function toBytes(body: RawBody): Uint8Array | undefined {
  if (typeof body === 'string') return encoder.encode(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  const tag = Object.prototype.toString.call(body);
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(body);
  return undefined;
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

/** Length check first (lengths are not secret), then a comparison whose time does not depend on the bytes. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
