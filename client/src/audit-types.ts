/** Shapes of the audit log (the service's docs/api/audit.md). */

/** Who made a change: a console user, an API key, or the service itself. */
export type AuditActor = { type: 'user'; userId: string } | { type: 'api_key'; keyId: string } | { type: 'system' };

/** One entry of the workspace's audit log, chained to the one before by `prevHash`. */
export interface AuditEntry {
  id: string;
  at: string;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: AuditActor;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  details: Record<string, unknown>;
  /** The previous entry's `hash` (64 zeros for the first). */
  prevHash: string;
  /** sha256(prevHash + canonical JSON of the entry without prevHash and hash), hex. */
  hash: string;
}

/** Filters of `client.audit.list` and `client.audit.export`; `from` inclusive, `to` exclusive (ISO-8601). */
export interface AuditFilter {
  action?: string;
  resourceType?: string;
  resourceId?: string;
  /** A user's or an API key's id. */
  actorId?: string;
  from?: string;
  to?: string;
}
