import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PhoneNumber } from '../../db/entities/PhoneNumber';
import { Workspace } from '../../db/entities/Workspace';
import { secretSlot } from '../../db/secretColumns';
import { errors } from '../errors';
import { claimQuota } from '../quotas/quotas';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import { callbackUrl, hashCallbackToken, newCallbackToken } from './callbackToken';
import type { PhoneDeps } from './deps';
import { findNumber, phoneAgentFromBody } from './find';
import { presentNumber, type NumberView } from './presenters';

/** The provider account a number places calls with; sealed at rest, never returned. */
export interface ProviderCredentials {
  accountSid: string;
  authToken: string;
}

const taken = (e164: string) => errors.conflict(`The number ${e164} is already connected`);

/**
 * Connects a number to a phone agent of the workspace. Answers the number with its callback URL, shown this
 * once (`rotate-secret` makes a new one): only a hash of its token is kept. Throws `validation_error` for an agent that is not a phone
 * agent of the workspace, `conflict` when the number is connected already (here or elsewhere) or the plan's
 * phone numbers are all in use (`details.quota`).
 */
export async function createNumber(
  em: EntityManager,
  deps: PhoneDeps,
  identity: Identity,
  input: { e164: string; provider: 'twilio'; agentId: string; credentials: ProviderCredentials },
): Promise<NumberView & { callbackUrl: string }> {
  const agent = await phoneAgentFromBody(em, identity.workspaceId, input.agentId);
  const token = newCallbackToken();
  const number = new PhoneNumber(
    em.getReference(Workspace, identity.workspaceId),
    agent,
    input.e164,
    input.provider,
    '',
    hashCallbackToken(token),
  );
  number.credentials = deps.box.seal(JSON.stringify(input.credentials), credentialsSlot(number));
  try {
    await em.transactional(async (tx) => {
      await claimQuota(tx, identity.workspaceId, { phoneNumbers: 1 });
      tx.persist(number);
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw taken(input.e164);
    throw err;
  }
  return { ...presentNumber(number), callbackUrl: callbackUrl(deps.config, number.id, token) };
}

/** One page of the workspace's live numbers, newest first. */
export async function listNumbers(
  em: EntityManager,
  deps: PhoneDeps,
  identity: Identity,
  page: { limit: number; cursor?: string },
): Promise<{ numbers: NumberView[]; nextCursor: string | null }> {
  const where = { workspace: identity.workspaceId, deletedAt: null };
  const { items, nextCursor } = await findPage(em, PhoneNumber, where, page);
  return { numbers: items.map((n) => presentNumber(n)), nextCursor };
}

export async function getNumber(
  em: EntityManager,
  deps: PhoneDeps,
  identity: Identity,
  id: string,
): Promise<NumberView> {
  return presentNumber(await findNumber(em, identity.workspaceId, id));
}

/** Moves a number to another phone agent and/or replaces its provider credentials. Throws `not_found`. */
export async function updateNumber(
  em: EntityManager,
  deps: PhoneDeps,
  identity: Identity,
  id: string,
  input: { agentId?: string; credentials?: ProviderCredentials },
): Promise<NumberView> {
  const number = await findNumber(em, identity.workspaceId, id);
  if (input.agentId !== undefined) number.agent = await phoneAgentFromBody(em, identity.workspaceId, input.agentId);
  if (input.credentials !== undefined) {
    number.credentials = deps.box.seal(JSON.stringify(input.credentials), credentialsSlot(number));
  }
  number.updatedAt = new Date();
  await em.flush();
  return presentNumber(number);
}

/** Removes a number: its callbacks answer 404 from now on; its calls stay readable. Throws `not_found`. */
export async function deleteNumber(em: EntityManager, identity: Identity, id: string): Promise<void> {
  const number = await findNumber(em, identity.workspaceId, id);
  number.deletedAt = new Date();
  await em.flush();
}

/**
 * Replaces a number's callback URL token and answers the new callback URL, shown this once. The old URL
 * answers 404 at once: every callback is checked against the row as it is when it arrives.
 */
export async function rotateSecret(
  em: EntityManager,
  deps: PhoneDeps,
  identity: Identity,
  id: string,
): Promise<{ callbackUrl: string }> {
  const number = await findNumber(em, identity.workspaceId, id);
  const token = newCallbackToken();
  number.callbackTokenHash = hashCallbackToken(token);
  number.updatedAt = new Date();
  await em.flush();
  return { callbackUrl: callbackUrl(deps.config, number.id, token) };
}

/** Where a number's sealed credentials live: bound to the row and its column. */
const credentialsSlot = (number: PhoneNumber) => secretSlot('phone_numbers', number.id, 'credentials');

/**
 * A number's provider credentials, opened.
 * @throws SecretError (platform/secrets.ts) when they do not open (another row's, or an unknown key)
 */
export function openCredentials(deps: Pick<PhoneDeps, 'box'>, number: PhoneNumber): ProviderCredentials {
  return JSON.parse(deps.box.open(number.credentials, credentialsSlot(number))) as ProviderCredentials;
}
