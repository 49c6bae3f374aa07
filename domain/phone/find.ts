import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent } from '../../db/entities/Agent';
import { PhoneCall } from '../../db/entities/PhoneCall';
import { PhoneNumber } from '../../db/entities/PhoneNumber';
import { isPhonePreset } from '../agents/presets';
import { errors } from '../errors';

/** A live number of the workspace. Throws `not_found` for any other id, a removed number included. */
export async function findNumber(em: EntityManager, workspaceId: string, id: string): Promise<PhoneNumber> {
  const number = await em.findOne(PhoneNumber, { id, workspace: workspaceId, deletedAt: null });
  if (!number) throw errors.notFound('Phone number');
  return number;
}

/** A call of the workspace. Throws `not_found`. */
export async function findCall(em: EntityManager, workspaceId: string, id: string): Promise<PhoneCall> {
  const call = await em.findOne(PhoneCall, { id, workspace: workspaceId });
  if (!call) throw errors.notFound('Call');
  return call;
}

/**
 * The phone agent a body names (`agentId`): a live agent of the workspace built on a phone preset. An id in
 * a body that names none is 400 `validation_error` at its path, like a `projectId` (docs/api/phone.md).
 */
export async function phoneAgentFromBody(em: EntityManager, workspaceId: string, agentId: string): Promise<Agent> {
  const agent = await em.findOne(Agent, { id: agentId, workspace: workspaceId, deletedAt: null });
  if (!agent) throw errors.validation([{ path: 'agentId', message: `Unknown agent ${agentId}` }]);
  if (!isPhonePreset(agent.presetId)) {
    throw errors.validation([{ path: 'agentId', message: 'The agent is not built on a phone preset' }]);
  }
  return agent;
}
