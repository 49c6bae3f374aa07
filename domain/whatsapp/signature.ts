import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The header the Cloud API signs its webhook posts with. */
export const SIGNATURE_HEADER = 'X-Hub-Signature-256';

/** `sha256=` + hex HMAC-SHA256 of the raw body under the app secret, as the Cloud API sends it. */
export function hubSignature(appSecret: string, raw: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

/** Compares two strings in time independent of where they differ (their digests have one length). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Whether `header` is the signature of exactly these bytes under `appSecret`. A missing or malformed header
 * is simply not valid; the comparison is timing-safe.
 */
export function validSignature(appSecret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header || appSecret === '') return false;
  return sameSecret(hubSignature(appSecret, raw), header.trim().toLowerCase());
}
