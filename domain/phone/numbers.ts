import { randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PhoneNumber } from '../../db/entities/PhoneNumber';
import { Workspace } from '../../db/entities/Workspace';
import { secretSlot } from '../../db/secretColumns';
import { errors } from '../errors';
import { claimQuota } from '../quotas/quotas';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import type { PhoneDeps } from './deps';
import { findNumber, phoneAgentFromBody } from './find';
import { presentNumber, type NumberView } from './presenters';

/** The provider account a number places calls with; sealed at rest, never returned. */
export interface ProviderCredentials {
  accountSid: string;
  authToken: string;
}

const newSecret = () => randomBytes(24).toString('base64url');

const taken = (e164: string) => errors.conflict(`The number ${e164} is already connected`);

/**
 * Connects a number to a phone agent of the workspace. Answers the number with its webhook secret, shown
 * this once (`rotate-secret` makes a new one). Throws `validation_error` for an agent that is not a phone
 * agent of the workspace, `conflict` when the number is connected already (here or elsewhere) or the plan's
 * phone numbers are all in use (`details.quota`).
 */
export async function createNumber(
  em: EntityManager,
  deps: PhoneDeps,
  identity: Identity,
  input: { e164: string; provider: 'twilio'; agentId: string; credentials: ProviderCredentials },
): Promise<NumberView & { webhookSecret: string }> {
  const agent = await phoneAgentFromBody(em, identity.workspaceId, input.agentId);
  const secret = newSecret();
  const number = new PhoneNumber(
    em.getReference(Workspace, identity.workspaceId),
    agent,
    input.e164,
    input.provider,
    '',
    '',
  );
  number.credentials = deps.box.seal(JSON.stringify(input.credentials), credentialsSlot(number));
  number.webhookSecret = deps.box.seal(secret, webhookSecretSlot(number));
  try {
    await em.transactional(async (tx) => {
      await claimQuota(tx, identity.workspaceId, { phoneNumbers: 1 });
      tx.persist(number);
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw taken(input.e164);
    throw err;
  }
  return { ...presentNumber(deps.config, number), webhookSecret: secret };
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
  return { numbers: items.map((n) => presentNumber(deps.config, n)), nextCursor };
}

export async function getNumber(
  em: EntityManager,
  deps: PhoneDeps,
  identity: Identity,
  id: string,
): Promise<NumberView> {
  return presentNumber(deps.config, await findNumber(em, identity.workspaceId, id));
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
  return presentNumber(deps.config, number);
}

/** Removes a number: its callbacks answer 404 from now on; its calls stay readable. Throws `not_found`. */
export async function deleteNumber(em: EntityManager, identity: Identity, id: string): Promise<void> {
  const number = await findNumber(em, identity.workspaceId, id);
  number.deletedAt = new Date();
  await em.flush();
}

/**
 * Replaces a number's webhook secret and answers the new one, shown this once. The old secret stops
 * verifying at once: every callback is checked against the row as it is when it arrives.
 */
export async function rotateSecret(
  em: EntityManager,
  deps: PhoneDeps,
  identity: Identity,
  id: string,
): Promise<{ webhookSecret: string }> {
  const number = await findNumber(em, identity.workspaceId, id);
  const secret = newSecret();
  number.webhookSecret = deps.box.seal(secret, webhookSecretSlot(number));
  number.updatedAt = new Date();
  await em.flush();
  return { webhookSecret: secret };
}

/** Where a number's sealed secrets live: each is bound to the row and its column. */
const credentialsSlot = (number: PhoneNumber) => secretSlot('phone_numbers', number.id, 'credentials');
export const webhookSecretSlot = (number: PhoneNumber) => secretSlot('phone_numbers', number.id, 'webhook_secret');

/** A number's provider credentials, opened. */
export function openCredentials(deps: Pick<PhoneDeps, 'box'>, number: PhoneNumber): ProviderCredentials {
  return JSON.parse(deps.box.open(number.credentials, credentialsSlot(number))) as ProviderCredentials;
}
