import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey } from '../../db/entities/ApiKey';
import { Workspace } from '../../db/entities/Workspace';
import { usdToMicros } from '../shared/money';
import { spentThisMonthMicros } from './spend';
import { errors } from '../errors';
import { findPage } from '../shared/pagination';
import type { Identity } from './identity';
import { presentApiKey, type ApiKeyView, type CreatedApiKeyView } from './presenters';
import type { Scope } from './scopes';
import { newApiKeyPlaintext, sha256Hex } from './secrets';

/** Loads an active key of the caller's workspace; another workspace's key is `not_found`, never `forbidden`. */
async function findActiveKey(em: EntityManager, identity: Identity, id: string): Promise<ApiKey> {
  const key = await em.findOne(ApiKey, { id, workspace: identity.workspaceId, revokedAt: null });
  if (!key) throw errors.notFound('API key');
  return key;
}

async function presentWithSpend(em: EntityManager, key: ApiKey): Promise<ApiKeyView> {
  const spent = await spentThisMonthMicros(em, [key.id]);
  return presentApiKey(key, spent.get(key.id) ?? 0);
}

/** The monthly spend cap of the calling key, or null for a session or an uncapped key. */
async function callerCapMicros(em: EntityManager, identity: Identity): Promise<number | null> {
  if (identity.actor !== 'api_key') return null;
  const caller = await em.findOneOrFail(ApiKey, identity.keyId);
  return caller.monthlySpendCapMicros;
}

/**
 * Creates a key in the caller's workspace and returns its plaintext, the only time it is shown. A key
 * cannot grant scopes it does not hold itself (`forbidden`), and a key minted by a capped key gets that
 * cap at most: none or a higher one becomes the minter's cap, a lower one is kept. A session is limited
 * by its role already.
 */
export async function createApiKey(
  em: EntityManager,
  identity: Identity,
  input: { name: string; scopes: Scope[]; monthlySpendCapUsd?: number | null },
): Promise<CreatedApiKeyView> {
  if (identity.actor === 'api_key') {
    const missing = input.scopes.filter((s) => !identity.scopes.includes(s));
    if (missing.length) throw errors.forbidden(`A key cannot grant scopes it does not hold: ${missing.join(', ')}`);
  }
  const asked = input.monthlySpendCapUsd == null ? null : usdToMicros(input.monthlySpendCapUsd);
  const ceiling = await callerCapMicros(em, identity);
  const capMicros = ceiling === null ? asked : Math.min(asked ?? ceiling, ceiling);
  const { key, plaintext } = await issueApiKey(em, identity.workspaceId, input.name, input.scopes, capMicros);
  // A key answers approval gates as the person who made it (docs/api/runs.md#approval-policies).
  key.createdByUserId = await makerOf(em, identity);
  await em.flush();
  const { spentThisMonthUsd: _s, lastUsedAt: _l, ...rest } = presentApiKey(key, 0);
  return { ...rest, key: plaintext };
}

/** The person a new key is made by: a session's user, or whoever made the key that asks. */
async function makerOf(em: EntityManager, identity: Identity): Promise<string | null> {
  if (identity.actor === 'session') return identity.userId;
  const [row] = await em.execute<Array<{ maker: string | null }>>(
    'select created_by_user_id as maker from api_keys where id = ?',
    [identity.keyId],
  );
  return row?.maker ?? null;
}

/**
 * Mints and stores a key for a workspace, with no check of who asks (the API checks the caller first;
 * the operator CLI is trusted). Only the SHA-256 of the plaintext and its first 12 characters are kept.
 */
export async function issueApiKey(
  em: EntityManager,
  workspaceId: string,
  name: string,
  scopes: Scope[],
  monthlySpendCapMicros: number | null = null,
): Promise<{ key: ApiKey; plaintext: string }> {
  const plaintext = newApiKeyPlaintext();
  const workspace = em.getReference(Workspace, workspaceId);
  const key = new ApiKey(workspace, name, [...new Set(scopes)], sha256Hex(plaintext), plaintext.slice(0, 12));
  key.monthlySpendCapMicros = monthlySpendCapMicros;
  await em.persist(key).flush();
  return { key, plaintext };
}

/** One page of the workspace's active keys, newest first, each with what it spent this calendar month (UTC). */
export async function listApiKeys(
  em: EntityManager,
  identity: Identity,
  page: { limit: number; cursor?: string },
): Promise<{ apiKeys: ApiKeyView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(em, ApiKey, { workspace: identity.workspaceId, revokedAt: null }, page);
  const spent = await spentThisMonthMicros(
    em,
    items.map((k) => k.id),
  );
  return { apiKeys: items.map((k) => presentApiKey(k, spent.get(k.id) ?? 0)), nextCursor };
}

/**
 * Sets a key's monthly spend cap in USD, or clears it with `null`. Throws `not_found` for an unknown key.
 * A key may not set its own cap, and a capped key may not set another key's cap above its own or clear
 * it (`forbidden`), so a cap cannot be walked around through a second key.
 */
export async function setApiKeySpendCap(
  em: EntityManager,
  identity: Identity,
  id: string,
  monthlySpendCapUsd: number | null,
): Promise<ApiKeyView> {
  const key = await findActiveKey(em, identity, id);
  if (identity.actor === 'api_key' && identity.keyId === key.id) {
    throw errors.forbidden('A key cannot change its own spend cap');
  }
  const capMicros = monthlySpendCapUsd === null ? null : usdToMicros(monthlySpendCapUsd);
  const ceiling = await callerCapMicros(em, identity);
  if (ceiling !== null && (capMicros === null || capMicros > ceiling)) {
    throw errors.forbidden('A capped key cannot set a spend cap above its own or clear one');
  }
  key.monthlySpendCapMicros = capMicros;
  await em.flush();
  return presentWithSpend(em, key);
}

/** Revokes a key; it stops working at once. Throws `not_found` for an unknown or already revoked key. */
export async function revokeApiKey(em: EntityManager, identity: Identity, id: string): Promise<void> {
  const key = await findActiveKey(em, identity, id);
  key.revokedAt = new Date();
  await em.flush();
}
