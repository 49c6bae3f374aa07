import type { EntityManager } from '@mikro-orm/postgresql';
import type { Middleware } from 'koa';
import { ApiKey } from '../../db/entities/ApiKey';
import { Membership } from '../../db/entities/Membership';
import { Session } from '../../db/entities/Session';
import { PLAN_ENTITLEMENTS, type Plan } from '../../db/entities/Workspace';
import { API_KEY_PREFIX, sha256Hex } from '../../domain/identity/secrets';
import { isScope, roleAllows } from '../../domain/identity/scopes';
import type { Config } from '../../platform/config';
import type { AppContext, AppState, Identity } from '../context';
import { errors } from '../../domain/errors';
import type { RateLimitStore } from '../rateLimitStore';
import type { Access } from '../routes/route';

export const SESSION_COOKIE = 'svc_session';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface AuthDeps {
  config: Config;
  rateLimits: RateLimitStore;
}

/**
 * Resolves and checks the caller for one route (spec §5): credential → identity (401), key rate
 * limit (429, CONTRACT §3), console-only and scope/role checks (403), CSRF origin for session writes.
 */
export function authorize(access: Access, deps: AuthDeps): Middleware<AppState> {
  return async (ctx, next) => {
    if (access.auth === 'public') return next();
    const em = ctx.state.em;
    const bearer = bearerToken(ctx);
    const cookie = ctx.cookies.get(SESSION_COOKIE);

    let identity: Identity;
    if (bearer !== undefined) {
      identity = await keyIdentity(em, bearer);
      await enforceKeyRateLimit(ctx, deps.rateLimits, identity);
      // spec §5 rule 1, CONTRACT §1: a key on a console route is a valid credential in the wrong place.
      if (access.auth === 'session') throw errors.forbidden('Console routes accept a session only');
    } else if (cookie) {
      identity = await sessionIdentity(em, cookie, ctx.get('X-Workspace-Id'));
    } else {
      throw errors.unauthorized();
    }
    ctx.state.identity = identity;

    const scope = 'scope' in access ? access.scope : undefined;
    if (scope) {
      const allowed = identity.actor === 'api_key' ? identity.scopes.includes(scope) : roleAllows(identity.role, scope);
      if (!allowed) {
        throw errors.forbidden(
          identity.actor === 'api_key'
            ? `This API key lacks the scope ${scope}`
            : `The ${identity.role} role cannot perform this action`,
        );
      }
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

async function keyIdentity(em: EntityManager, plaintext: string): Promise<Identity> {
  if (!plaintext.startsWith(API_KEY_PREFIX)) throw errors.unauthorized('Invalid API key');
  const key = await em.findOne(ApiKey, { keyHash: sha256Hex(plaintext), revokedAt: null }, { populate: ['workspace'] });
  if (!key) throw errors.unauthorized('Invalid API key');
  // lastUsedAt is informational: write it at most once a minute, not on every request.
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > 60_000) {
    await em.nativeUpdate(ApiKey, { id: key.id }, { lastUsedAt: new Date() });
  }
  return {
    actor: 'api_key',
    workspaceId: key.workspace.id,
    keyId: key.id,
    scopes: key.scopes.filter(isScope),
    plan: key.workspace.plan,
  };
}

async function sessionIdentity(em: EntityManager, token: string, workspaceHeader: string): Promise<Identity> {
  const session = await em.findOne(
    Session,
    { tokenHash: sha256Hex(token), expiresAt: { $gt: new Date() } },
    { populate: ['user'] },
  );
  if (!session) throw errors.unauthorized('Session expired or unknown');
  // spec §5 rule 2: X-Workspace-Id picks the workspace; absent → the caller's first workspace.
  let membership: Membership | null;
  if (workspaceHeader) {
    membership = UUID.test(workspaceHeader)
      ? await em.findOne(Membership, { user: session.user, workspace: workspaceHeader }, { populate: ['workspace'] })
      : null;
    if (!membership) throw errors.forbidden('You are not a member of that workspace');
  } else {
    membership = await em.findOne(
      Membership,
      { user: session.user },
      { populate: ['workspace'], orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    if (!membership) throw errors.forbidden('You are not a member of any workspace');
  }
  return {
    actor: 'session',
    userId: session.user.id,
    workspaceId: membership.workspace.id,
    role: membership.role,
    sessionId: session.id,
    emailVerified: session.user.emailVerifiedAt !== null,
    plan: membership.workspace.plan,
  };
}

async function enforceKeyRateLimit(ctx: AppContext, store: RateLimitStore, identity: Identity): Promise<void> {
  if (identity.actor !== 'api_key') return;
  const limit =
    PLAN_ENTITLEMENTS[identity.plan as Plan]?.apiRateLimitPerMin ?? PLAN_ENTITLEMENTS.free_trial.apiRateLimitPerMin;
  const result = await store.hit(ctx.state.em, `key:${identity.keyId}`, limit);
  ctx.set('RateLimit-Limit', String(result.limit));
  ctx.set('RateLimit-Remaining', String(result.remaining));
  ctx.set('RateLimit-Reset', String(result.resetSec));
  if (!result.allowed) throw errors.rateLimited(result.resetSec);
}

/** CONTRACT §2 CSRF rule: a session write that carries an Origin must carry an allowed one. */
function checkOrigin(ctx: AppContext, config: Config): void {
  const origin = ctx.get('Origin');
  if (origin && !config.consoleOrigins.includes(origin)) throw errors.forbidden('Origin not allowed');
}
