import type { EntityManager, AbstractSqlConnection } from '@mikro-orm/postgresql';
import { ApiKey } from '../../db/entities/ApiKey';
import { Membership } from '../../db/entities/Membership';
import { Session } from '../../db/entities/Session';
import { PLAN_ENTITLEMENTS, type Plan } from '../../db/entities/Workspace';
import { errors } from '../errors';
import type { ApiKeyCache, KnownKey } from './apiKeyCache';
import type { Identity } from './identity';
import { isScope, roleAllows, type Scope } from './scopes';
import { API_KEY_PREFIX, sha256Hex } from './secrets';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The key a plaintext names, if it holds (not revoked, its workspace still there), with its workspace's plan:
 * from the process's cache (docs/api/limits.md) or else from its row, one round trip. Throws
 * `unauthorized` for a malformed, unknown or revoked key. Records when the key was last used, at most
 * once a minute.
 */
export async function resolveApiKey(
  db: AbstractSqlConnection,
  plaintext: string,
  cache: ApiKeyCache,
): Promise<KnownKey> {
  if (!plaintext.startsWith(API_KEY_PREFIX)) throw errors.unauthorized('Invalid API key');
  const keyHash = sha256Hex(plaintext);
  let known = cache.get(keyHash);
  if (!known) {
    const ticket = cache.ticket();
    const rows: Array<{ id: string; workspace_id: string; scopes: string[]; plan: string; last_used_at: Date | null }> =
      await db.execute(
        `select k.id, k.workspace_id, k.scopes, w.plan, k.last_used_at
         from api_keys k join workspaces w on w.id = k.workspace_id
         where k.key_hash = ? and k.revoked_at is null`,
        [keyHash],
      );
    const row = rows[0];
    if (!row) throw errors.unauthorized('Invalid API key');
    known = {
      keyId: row.id,
      workspaceId: row.workspace_id,
      scopes: row.scopes.filter(isScope),
      plan: (row.plan in PLAN_ENTITLEMENTS ? row.plan : 'free_trial') as Plan,
      lastUsedWrittenAt: row.last_used_at ? new Date(row.last_used_at).getTime() : 0,
    };
    cache.remember(keyHash, known, ticket);
  }
  // lastUsedAt is informational: write it at most once a minute, not on every request.
  if (Date.now() - known.lastUsedWrittenAt > 60_000) {
    known.lastUsedWrittenAt = Date.now();
    await db.execute(`update api_keys set last_used_at = ? where id = ?`, [new Date(), known.keyId]);
  }
  return known;
}

/**
 * The identity behind a session token, in the workspace `workspaceId` names, or, when it is empty, the
 * user's first workspace. Throws `unauthorized` for an unknown or expired session, `forbidden` when the
 * user is not a member of the workspace named (or of any).
 */
export async function sessionIdentity(
  em: EntityManager,
  token: string,
  workspaceId: string,
): Promise<Extract<Identity, { actor: 'session' }>> {
  const session = await em.findOne(
    Session,
    { tokenHash: sha256Hex(token), expiresAt: { $gt: new Date() } },
    { populate: ['user'] },
  );
  if (!session) throw errors.unauthorized('Session expired or unknown');
  let membership: Membership | null;
  if (workspaceId) {
    membership = UUID.test(workspaceId)
      ? await em.findOne(Membership, { user: session.user, workspace: workspaceId }, { populate: ['workspace'] })
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

/**
 * Whether the credential behind an identity still holds: the key is not revoked, or the session has not
 * ended (sign-out, expiry) and its user is still a member of the workspace. For long-lived responses
 * (event streams) that resolved their identity once, at the start.
 */
export async function credentialStillValid(em: EntityManager, identity: Identity): Promise<boolean> {
  if (identity.actor === 'api_key') return (await em.count(ApiKey, { id: identity.keyId, revokedAt: null })) > 0;
  const [sessions, memberships] = await Promise.all([
    em.count(Session, { id: identity.sessionId, expiresAt: { $gt: new Date() } }),
    em.count(Membership, { user: identity.userId, workspace: identity.workspaceId }),
  ]);
  return sessions > 0 && memberships > 0;
}

/** Whether the caller may use a scope: a key must hold it, a session's role must allow it. */
export function identityAllows(identity: Identity, scope: Scope): boolean {
  return identity.actor === 'api_key' ? identity.scopes.includes(scope) : roleAllows(identity.role, scope);
}

/**
 * Throws `forbidden` when the caller may not use the scope, saying whether the key lacks it or the
 * role does not allow it.
 */
export function requireScope(identity: Identity, scope: Scope): void {
  if (identityAllows(identity, scope)) return;
  throw errors.forbidden(
    identity.actor === 'api_key'
      ? `This API key lacks the scope ${scope}`
      : `The ${identity.role} role cannot perform this action`,
  );
}
