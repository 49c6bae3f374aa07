/** Who made a change: a console user, an API key, or the service itself (the operator CLI). */
export type AuditActor = { type: 'user'; userId: string } | { type: 'api_key'; keyId: string } | { type: 'system' };

/** What the API knows of the request that made a change; `null` where there is no request (the CLI). */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/**
 * Everything the audit recorder needs besides the change itself: the workspace whose chain it joins, the
 * actor and the request. The API builds it once per request (api/auditContext.ts) and passes it down to
 * the domain function that makes the change.
 */
export interface AuditContext extends RequestMeta {
  workspaceId: string;
  actor: AuditActor;
}

/** A user agent is the caller's text: kept, but never longer than this. */
const MAX_USER_AGENT = 512;

/**
 * The caller as the audit log needs it: the shape of the request's identity (domain/identity/identity.ts),
 * stated here so that the log, which every area records into, depends on no area.
 */
export type AuditCaller =
  { actor: 'api_key'; workspaceId: string; keyId: string } | { actor: 'session'; workspaceId: string; userId: string };

/** The audit context of a request made by `identity`. */
export function auditContextOf(identity: AuditCaller, meta: RequestMeta): AuditContext {
  const actor: AuditActor =
    identity.actor === 'api_key'
      ? { type: 'api_key', keyId: identity.keyId }
      : { type: 'user', userId: identity.userId };
  return {
    workspaceId: identity.workspaceId,
    actor,
    ip: meta.ip || null,
    userAgent: meta.userAgent ? meta.userAgent.slice(0, MAX_USER_AGENT) : null,
    requestId: meta.requestId || null,
  };
}

/** The audit context of a change the operator makes with the CLI (scripts/admin.ts): no request, no person. */
export function systemAuditContext(workspaceId: string): AuditContext {
  return { workspaceId, actor: { type: 'system' }, ip: null, userAgent: null, requestId: null };
}
