import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent, AgentVersion } from '../../db/entities/Agent';
import { errors } from '../errors';

/**
 * Loads a live (not deleted) agent of the workspace. Throws `not_found` for any other id, another
 * workspace's agent included, so ids of other workspaces cannot be probed.
 */
export async function findAgent(em: EntityManager, workspaceId: string, id: string): Promise<Agent> {
  const agent = await em.findOne(Agent, { id, workspace: workspaceId, deletedAt: null });
  if (!agent) throw errors.notFound('Agent');
  return agent;
}

/** The agent's current version. */
export function currentVersion(em: EntityManager, agent: Agent): Promise<AgentVersion> {
  return em.findOneOrFail(AgentVersion, { agent, version: agent.currentVersion });
}
