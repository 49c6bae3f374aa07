import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WhatsAppAccount, type WhatsAppTemplate } from '../../db/entities/WhatsAppAccount';
import { Workspace } from '../../db/entities/Workspace';
import type { SecretBox } from '../../platform/secrets';
import { secretSlot } from '../../db/secretColumns';
import { agentFromBody } from '../apps/find';
import { errors } from '../errors';
import { claimQuota } from '../quotas/quotas';
import { findPage } from '../shared/pagination';
import { presentAccount, type WhatsAppAccountView } from './presenters';

/** What the account operations need: the secrets' box and the address the webhook URL is built on. */
export interface WhatsAppAccountDeps {
  box: SecretBox;
  publicUrl: string;
}

export interface CreateAccountInput {
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  agentId: string;
  /** Sent instead of a reply outside WhatsApp's 24-hour window (docs/api/whatsapp.md#the-24-hour-window). */
  template?: WhatsAppTemplate | null;
}

/**
 * Loads a live account of the workspace. Throws `not_found` for any other id: another workspace's, or a removed
 * one, so ids cannot be probed.
 */
export async function findAccount(em: EntityManager, workspaceId: string, id: string): Promise<WhatsAppAccount> {
  const account = await em.findOne(WhatsAppAccount, { id, workspace: workspaceId, deletedAt: null });
  if (!account) throw errors.notFound('WhatsApp account');
  return account;
}

function phoneTaken(phoneNumberId: string) {
  return errors.conflict(`Phone number ${phoneNumberId} is already connected to a WhatsApp account of this workspace`, {
    phoneNumberId,
  });
}

/** Flushes, turning the live-phone-number index's clash into 409 `conflict`. */
async function flushUnique(em: EntityManager, phoneNumberId: string): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw phoneTaken(phoneNumberId);
    throw err;
  }
}

/**
 * Connects a phone number: the credentials are sealed before they are stored and never shown again.
 * Throws 400 for an agent of no one's, 409 when a live account of the workspace has the phone number id or
 * the plan's WhatsApp accounts are all in use (`details.quota`).
 */
export async function createAccount(
  em: EntityManager,
  deps: WhatsAppAccountDeps,
  workspaceId: string,
  input: CreateAccountInput,
): Promise<WhatsAppAccountView> {
  const agent = await agentFromBody(em, workspaceId, input.agentId);
  const account = new WhatsAppAccount(em.getReference(Workspace, workspaceId), agent, input.phoneNumberId, '', '', '');
  sealCredentials(deps.box, account, input);
  account.template = input.template ?? null;
  try {
    await em.transactional(async (tx) => {
      await claimQuota(tx, workspaceId, { whatsappAccounts: 1 });
      tx.persist(account);
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw phoneTaken(input.phoneNumberId);
    throw err;
  }
  return presentAccount(account, deps.publicUrl);
}

/** Seals the credentials given, each bound to the account's row and its column. */
function sealCredentials(box: SecretBox, account: WhatsAppAccount, input: Partial<CreateAccountInput>): void {
  const slot = (column: 'access_token' | 'app_secret' | 'verify_token') =>
    secretSlot('whatsapp_accounts', account.id, column);
  if (input.accessToken !== undefined) account.accessTokenSealed = box.seal(input.accessToken, slot('access_token'));
  if (input.appSecret !== undefined) account.appSecretSealed = box.seal(input.appSecret, slot('app_secret'));
  if (input.verifyToken !== undefined) account.verifyTokenSealed = box.seal(input.verifyToken, slot('verify_token'));
}

/** One page of the workspace's live accounts, newest first. */
export async function listAccounts(
  em: EntityManager,
  deps: WhatsAppAccountDeps,
  workspaceId: string,
  page: { limit: number; cursor?: string },
): Promise<{ accounts: WhatsAppAccountView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(em, WhatsAppAccount, { workspace: workspaceId, deletedAt: null }, page);
  return { accounts: items.map((a) => presentAccount(a, deps.publicUrl)), nextCursor };
}

/**
 * Changes an account: a credential given replaces the sealed one; a new agent answers from the next conversation
 * on. Throws `not_found`, 400 for an unknown agent, 409 for a phone number id a live account already has.
 */
export async function updateAccount(
  em: EntityManager,
  deps: WhatsAppAccountDeps,
  workspaceId: string,
  id: string,
  input: Partial<CreateAccountInput>,
): Promise<WhatsAppAccountView> {
  const account = await findAccount(em, workspaceId, id);
  if (input.agentId !== undefined) account.agent = await agentFromBody(em, workspaceId, input.agentId);
  if (input.phoneNumberId !== undefined) account.phoneNumberId = input.phoneNumberId;
  if (input.template !== undefined) account.template = input.template;
  sealCredentials(deps.box, account, input);
  account.updatedAt = new Date();
  await flushUnique(em, account.phoneNumberId);
  return presentAccount(account, deps.publicUrl);
}

/**
 * Removes an account: its webhook answers 404 from now on and its credentials are wiped; its conversations stay
 * readable. Throws `not_found`.
 */
export async function removeAccount(em: EntityManager, workspaceId: string, id: string): Promise<WhatsAppAccount> {
  const account = await findAccount(em, workspaceId, id);
  account.deletedAt = new Date();
  account.updatedAt = account.deletedAt;
  account.accessTokenSealed = '';
  account.appSecretSealed = '';
  account.verifyTokenSealed = '';
  await em.flush();
  return account;
}
