import type { Middleware } from 'koa';
import { PLAN_ENTITLEMENTS } from '../../db/entities/Workspace';
import type { ApiKeyCache, KnownKey } from '../../domain/identity/apiKeyCache';
import { requireScope, resolveApiKey, sessionIdentity } from '../../domain/identity/credentials';
import type { Config } from '../../platform/config';
import type { AppContext, AppState, Identity } from '../context';
import { errors } from '../../domain/errors';
import type { KeyRateLimiter } from '../keyRateLimit';
import type { RateLimitStore } from '../rateLimitStore';
import { enforceRateLimit, setRateLimitHeaders } from './rateLimit';
import type { Access } from '../routes/route';

export const SESSION_COOKIE = 'svc_session';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface AuthDeps {
  config: Config;
  rateLimits: RateLimitStore;
  keyLimits: KeyRateLimiter;
  apiKeys: ApiKeyCache;
}

/**
 * Resolves and checks the caller for one route (docs/api/identity.md): credential → identity (401),
 * the key's or the session user's per-minute rate limit (429, docs/api/limits.md), console-only and
 * scope/role checks (403), and the Origin check for session writes.
 */
export function authorize(access: Access, deps: AuthDeps): Middleware<AppState> {
  return async (ctx, next) => {
    if (access.auth === 'public') return next();
    const bearer = bearerToken(ctx);
    // a bearer wins over a cookie, so the cookie header is parsed only without one
    const cookie = bearer === undefined ? ctx.cookies.get(SESSION_COOKIE) : undefined;

    let identity: Identity;
    if (bearer !== undefined) {
      const key = await resolveApiKey(ctx.state.db, bearer, deps.apiKeys);
      identity = await countKeyRequest(ctx, deps.keyLimits, key);
      // A key on a console route is a valid credential in the wrong place: 403, not 401.
      if (access.auth === 'session') throw errors.forbidden('Console routes accept a session only');
    } else if (cookie) {
      // X-Workspace-Id picks the workspace; without it, the caller's first workspace.
      identity = await sessionIdentity(ctx.state.em, cookie, ctx.get('X-Workspace-Id'));
      // per user, so opening more sessions buys no more requests
      await enforceRateLimit(ctx, deps.rateLimits, `user:${identity.userId}`, deps.config.sessionRatePerMin);
    } else {
      throw errors.unauthorized();
    }
    ctx.state.identity = identity;

    const scope = 'scope' in access ? access.scope : undefined;
    const roles = 'sessionRoles' in access ? access.sessionRoles : undefined;
    if (roles && identity.actor === 'session') {
      if (!roles.includes(identity.role))
        throw errors.forbidden(`The ${identity.role} role cannot perform this action`);
    } else if (scope) {
      requireScope(identity, scope);
    }
    if (identity.actor === 'session' && UNSAFE.has(ctx.method)) checkOrigin(ctx, deps.config);
    await next();
  };
}

function bearerToken(ctx: AppContext): string | undefined {
  const header = ctx.get('Authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw errors.unauthorized('Authorization must be "Bearer <API key>"');
  return match[1];
}

/** The key's request counted against its workspace plan's per-minute limit (429 over it). */
async function countKeyRequest(ctx: AppContext, limits: KeyRateLimiter, key: KnownKey): Promise<Identity> {
  const limit = PLAN_ENTITLEMENTS[key.plan].apiRateLimitPerMin;
  setRateLimitHeaders(ctx, limit, await limits.take(key.keyId, limit));
  return { actor: 'api_key', workspaceId: key.workspaceId, keyId: key.keyId, scopes: key.scopes, plan: key.plan };
}

/** CSRF: a session write that carries an Origin header must carry one of the configured console origins. */
function checkOrigin(ctx: AppContext, config: Config): void {
  const origin = ctx.get('Origin');
  if (origin && !config.consoleOrigins.includes(origin)) throw errors.forbidden('Origin not allowed');
}
