import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey } from '../../db/entities/ApiKey';
import { Workspace } from '../../db/entities/Workspace';
import { microsToUsd, usdToMicros } from '../shared/money';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
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
  audit: AuditContext,
): Promise<CreatedApiKeyView> {
  if (identity.actor === 'api_key') {
    const missing = input.scopes.filter((s) => !identity.scopes.includes(s));
    if (missing.length) throw errors.forbidden(`A key cannot grant scopes it does not hold: ${missing.join(', ')}`);
  }
  const asked = input.monthlySpendCapUsd == null ? null : usdToMicros(input.monthlySpendCapUsd);
  const ceiling = await callerCapMicros(em, identity);
  const capMicros = ceiling === null ? asked : Math.min(asked ?? ceiling, ceiling);
  // A key answers approval gates as the person who made it (docs/api/runs.md#approval-policies).
  const maker = await makerOf(em, identity);
  const { key, plaintext } = await issueApiKey(em, audit, input.name, input.scopes, capMicros, maker);
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
 * Mints and stores a key for the audit context's workspace, with no check of who asks (the API checks the
 * caller first; the operator CLI is trusted), and records `api_key.created` with it. Only the SHA-256 of the
 * plaintext and its first 12 characters are kept.
 */
export async function issueApiKey(
  em: EntityManager,
  audit: AuditContext,
  name: string,
  scopes: Scope[],
  monthlySpendCapMicros: number | null = null,
  createdByUserId: string | null = null,
): Promise<{ key: ApiKey; plaintext: string }> {
  const plaintext = newApiKeyPlaintext();
  const key = await em.transactional(async (tx) => {
    const workspace = tx.getReference(Workspace, audit.workspaceId);
    const minted = new ApiKey(workspace, name, [...new Set(scopes)], sha256Hex(plaintext), plaintext.slice(0, 12));
    minted.monthlySpendCapMicros = monthlySpendCapMicros;
    minted.createdByUserId = createdByUserId;
    await tx.persist(minted).flush();
    await recordAudit(tx, audit, {
      action: 'api_key.created',
      resourceType: 'api_key',
      resourceId: minted.id,
      details: {
        name,
        scopes: minted.scopes,
        prefix: minted.prefix,
        monthlySpendCapUsd: capUsd(monthlySpendCapMicros),
      },
    });
    return minted;
  });
  return { key, plaintext };
}

const capUsd = (micros: number | null) => (micros === null ? null : microsToUsd(micros));

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
  audit: AuditContext,
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
  await em.transactional(async (tx) => {
    // the cap as it is under the row lock: with concurrent changes, each entry's `from` is the one before it
    const [row] = await tx.execute<Array<{ cap: string | null }>>(
      'select monthly_spend_cap_micros as cap from api_keys where id = ? and revoked_at is null for update',
      [key.id],
    );
    if (!row) throw errors.notFound('API key');
    const before = row.cap === null ? null : Number(row.cap);
    await tx.nativeUpdate(ApiKey, { id: key.id }, { monthlySpendCapMicros: capMicros });
    await recordAudit(tx, audit, {
      action: 'api_key.spend_cap_changed',
      resourceType: 'api_key',
      resourceId: key.id,
      details: { name: key.name, prefix: key.prefix, from: capUsd(before), to: capUsd(capMicros) },
    });
  });
  key.monthlySpendCapMicros = capMicros;
  return presentWithSpend(em, key);
}

/** Revokes a key; it stops working at once. Throws `not_found` for an unknown or already revoked key. */
export async function revokeApiKey(
  em: EntityManager,
  identity: Identity,
  id: string,
  audit: AuditContext,
): Promise<void> {
  const key = await findActiveKey(em, identity, id);
  await em.transactional(async (tx) => {
    // only a key still active: of two revokes, one finds nothing left to do (404) and records nothing
    const revoked = await tx.nativeUpdate(ApiKey, { id: key.id, revokedAt: null }, { revokedAt: new Date() });
    if (!revoked) throw errors.notFound('API key');
    await recordAudit(tx, audit, {
      action: 'api_key.revoked',
      resourceType: 'api_key',
      resourceId: key.id,
      details: { name: key.name, prefix: key.prefix },
    });
  });
}
