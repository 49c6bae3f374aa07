import { createHash } from 'node:crypto';

/**
 * A stable fingerprint of a request: the SHA-256 of its canonical JSON (object keys sorted), so the same
 * request with its keys in another order is the same request. It tells a repeat from a different request
 * under one Idempotency-Key, for every POST and for run creation's key on the run row.
 */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
