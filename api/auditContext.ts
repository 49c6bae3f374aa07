import { auditContextOf, type AuditContext, type RequestMeta } from '../domain/audit/context';
import type { AppContext } from './context';

/**
 * The audit context of an authenticated request (docs/api/audit.md): its caller, the client IP (Koa's
 * `ctx.ip`, which honours the trusted proxy hops, docs/api/limits.md), its user agent and request id.
 */
export function auditContext(ctx: AppContext): AuditContext {
  return auditContextOf(ctx.state.identity!, {
    ip: ctx.ip,
    userAgent: ctx.get('User-Agent'),
    requestId: ctx.state.requestId,
  });
}

/** What an unauthenticated request (a one-click approval link) tells the audit log of itself. */
export function requestMeta(ctx: AppContext): RequestMeta {
  return { ip: ctx.ip, userAgent: ctx.get('User-Agent'), requestId: ctx.state.requestId };
}
