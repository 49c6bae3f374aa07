import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent, AgentVersion } from '../../db/entities/Agent';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { mayReadInstructions } from './access';
import { checkDefinition, type AgentDeps } from './agents';
import { findAgent } from './find';
import { requirePhoneAccess } from './access';
import { presentAgent, presentVersion, type AgentVersionView, type AgentView } from './presenters';

/** Loads version `n` of a live agent of the workspace. Throws `not_found` for either. */
async function findVersion(em: EntityManager, workspaceId: string, agentId: string, n: number): Promise<AgentVersion> {
  const agent = await findAgent(em, workspaceId, agentId);
  const version = await em.findOne(AgentVersion, { agent: agent.id, version: n });
  if (!version) throw errors.notFound('Agent version');
  return version;
}

/** One version of an agent; instructions only for callers allowed to read them. Throws `not_found`. */
export async function getAgentVersion(
  em: EntityManager,
  identity: Identity,
  agentId: string,
  n: number,
): Promise<AgentVersionView> {
  const version = await findVersion(em, identity.workspaceId, agentId, n);
  return presentVersion(version, mayReadInstructions(identity));
}

/**
 * Makes a new version whose definition equals version `n` and makes it current; the versions in between
 * stay as they were (a version is immutable). Always a new version, even when `n` is the current one, so
 * the history records the restore. The agent row is locked, so concurrent changes number their versions
 * one after another instead of clashing. Throws `not_found` for an unknown agent or version, and
 * `validation_error` when the version names a model or tool that no longer exists.
 */
export async function restoreAgentVersion(
  em: EntityManager,
  deps: AgentDeps,
  identity: Identity,
  agentId: string,
  n: number,
): Promise<AgentView> {
  return em.transactional(async (tx) => {
    const agent = await tx.findOne(
      Agent,
      { id: agentId, workspace: identity.workspaceId, deletedAt: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!agent) throw errors.notFound('Agent');
    requirePhoneAccess(identity, agent.presetId);
    const source = await tx.findOne(AgentVersion, { agent: agent.id, version: n });
    if (!source) throw errors.notFound('Agent version');
    checkDefinition(deps, source);
    agent.currentVersion += 1;
    agent.updatedAt = new Date();
    const restored = new AgentVersion(
      agent,
      agent.currentVersion,
      source.instructions,
      source.modelId,
      [...source.tools],
      { ...source.settings },
    );
    tx.persist(restored);
    await tx.flush();
    return presentAgent(agent, restored, true);
  });
}
