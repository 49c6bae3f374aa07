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

/** What a new run of an agent needs: the agent's current version and that version's model. */
export interface AgentForRun {
  agentId: string;
  version: number;
  modelId: string;
}

/**
 * The live agent of the workspace with its current version's model, in one statement and without
 * hydrating either entity (run creation's hot path). Throws `not_found` like {@link findAgent}.
 */
export async function findAgentForRun(em: EntityManager, workspaceId: string, id: string): Promise<AgentForRun> {
  const [row] = await em.execute<Array<{ version: number; model_id: string }>>(
    `select a.current_version as version, v.model_id from agents a
       join agent_versions v on v.agent_id = a.id and v.version = a.current_version
      where a.id = ? and a.workspace_id = ? and a.deleted_at is null`,
    [id, workspaceId],
  );
  if (!row) throw errors.notFound('Agent');
  return { agentId: id, version: row.version, modelId: row.model_id };
}
