import { createHash } from 'node:crypto';
import type { AuditActor } from './context';

/** The `prevHash` of a workspace's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The fields of an entry that its hash covers: the entry exactly as the API shows it, without `prevHash`
 * (which leads the hashed bytes) and `hash`. So anyone holding an export can recompute the chain.
 */
export interface ChainedFields {
  id: string;
  at: string;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: AuditActor;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  details: unknown;
}

/**
 * JSON with object keys sorted at every depth and no whitespace, so the same entry always gives the same
 * bytes, whichever order its keys were written or read back in (PostgreSQL's jsonb reorders them).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** `sha256(prevHash + canonical JSON of the entry)`, hex. */
export function entryHash(prevHash: string, entry: ChainedFields): string {
  return createHash('sha256')
    .update(prevHash + canonicalJson(entry))
    .digest('hex');
}
