import type { EntityManager } from '@mikro-orm/postgresql';
import { WhatsAppAccount } from '../../db/entities/WhatsAppAccount';
import type { SecretBox } from '../../platform/secrets';
import { secretSlot } from '../../db/secretColumns';
import { errors } from '../errors';
import { sameSecret, validSignature } from './signature';

/** The live account a webhook URL names, whatever its workspace (the URL is the account's). Throws `not_found`. */
export async function hookAccount(em: EntityManager, accountId: string): Promise<WhatsAppAccount> {
  const account = await em.findOne(WhatsAppAccount, { id: accountId, deletedAt: null });
  if (!account) throw errors.notFound('WhatsApp account');
  return account;
}

/**
 * The Cloud API's webhook verification (docs/api/whatsapp.md#webhook): `hub.mode=subscribe` with the account's
 * verify token answers the challenge. Throws `not_found` for no live account, `forbidden` for anything else.
 */
export async function verifySubscription(
  em: EntityManager,
  box: SecretBox,
  accountId: string,
  query: { mode: string; verifyToken: string; challenge: string },
): Promise<string> {
  const account = await hookAccount(em, accountId);
  const ok = query.mode === 'subscribe' && sameSecret(openHookSecret(box, account, 'verify_token'), query.verifyToken);
  if (!ok) throw errors.forbidden('Verification failed: wrong mode or verify token');
  return query.challenge;
}

/**
 * Checks a webhook post's `X-Hub-Signature-256` against the account's app secret, over the exact bytes received.
 * Throws `not_found` for no live account, `forbidden` for a missing or wrong signature (nothing is read from the
 * body before this passes).
 */
export async function authenticatePost(
  em: EntityManager,
  box: SecretBox,
  accountId: string,
  raw: Buffer,
  signature: string | undefined,
): Promise<WhatsAppAccount> {
  const account = await hookAccount(em, accountId);
  if (!validSignature(openHookSecret(box, account, 'app_secret'), raw, signature)) {
    throw errors.forbidden('Invalid X-Hub-Signature-256');
  }
  return account;
}

/**
 * An account's hook secret, opened; one that does not open (sealed for another row, or under a key no longer
 * configured) cannot authenticate anything, so the hook answers `forbidden` as for a wrong secret.
 */
function openHookSecret(box: SecretBox, account: WhatsAppAccount, column: 'app_secret' | 'verify_token'): string {
  const stored = column === 'app_secret' ? account.appSecretSealed : account.verifyTokenSealed;
  try {
    return box.open(stored, secretSlot('whatsapp_accounts', account.id, column));
  } catch {
    throw errors.forbidden('The stored secret cannot be read');
  }
}
