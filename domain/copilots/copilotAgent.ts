import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent, AgentVersion } from '../../db/entities/Agent';
import { Workspace } from '../../db/entities/Workspace';
import { COPILOT_MODEL_ID } from '../models/copilot';

/** The preset id of the workspace's copilot agent (not a preset callers can pick). */
export const COPILOT_PRESET = 'copilot';

/**
 * The workspace's copilot agent (docs/api/copilots.md): the agent whose runs answer the copilots' turns,
 * with the model `builtin/copilot`. Made on first use, one per workspace (an advisory lock keeps two
 * first uses from making two); a deleted one is made again. It is an ordinary agent: listed, billed,
 * and its owners may change its model or instructions.
 */
export async function copilotAgent(em: EntityManager, workspaceId: string): Promise<Agent> {
  const found = await em.findOne(Agent, { workspace: workspaceId, presetId: COPILOT_PRESET, deletedAt: null });
  if (found) return found;
  return em.fork().transactional(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`copilot-agent:${workspaceId}`]);
    const made = await tx.findOne(Agent, { workspace: workspaceId, presetId: COPILOT_PRESET, deletedAt: null });
    if (made) return made;
    const agent = new Agent(tx.getReference(Workspace, workspaceId), 'Copilot (built-in)', COPILOT_PRESET, 1);
    tx.persist([
      agent,
      new AgentVersion(agent, 1, 'Help the workspace with its agents and data sources.', COPILOT_MODEL_ID, [], {
        approval: 'never',
        review: false,
        maxSteps: 5,
      }),
    ]);
    await tx.flush();
    return agent;
  });
}
