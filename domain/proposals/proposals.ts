import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent, AgentVersion } from '../../db/entities/Agent';
import { ImprovementProposal, type ProposalChanges, type ProposalStatus } from '../../db/entities/ImprovementProposal';
import { checkDefinition, type AgentDeps } from '../agents/agents';
import { currentVersion, findAgent } from '../agents/find';
import { mayReadInstructions, requirePhoneAccess } from '../agents/access';
import { presentAgent, type AgentView, type Definition } from '../agents/presenters';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import { draftFromFeedback, type Drafter } from './fromFeedback';
import { presentProposal, type ProposalView } from './presenters';

export type ProposalInput = { changes: ProposalChanges; rationale: string } | { fromFeedback: true };

/** The definition `changes` make of `base`: what they leave out stays; settings merge key by key. */
function applied(base: Definition, changes: ProposalChanges): Definition {
  return {
    instructions: changes.instructions === undefined ? base.instructions : changes.instructions,
    modelId: changes.modelId ?? base.modelId,
    tools: changes.tools ? [...new Set(changes.tools)] : base.tools,
    settings: { ...base.settings, ...(changes.settings ?? {}) },
  };
}

/**
 * Proposes a change to a live agent against its current version: the caller's `changes` and
 * `rationale`, or `{ fromFeedback: true }` drafted from the agent's corrected feedback, by the assistant
 * model of `deps.drafter` when there is one (fromFeedback.ts; 409 when there is no such feedback). Throws
 * `not_found`, or `validation_error` for an unknown model or tool.
 */
export async function createProposal(
  em: EntityManager,
  deps: AgentDeps & { drafter?: Drafter },
  identity: Identity,
  agentId: string,
  input: ProposalInput,
): Promise<ProposalView> {
  const agent = await findAgent(em, identity.workspaceId, agentId);
  const base = await currentVersion(em, agent);
  const draft =
    'fromFeedback' in input
      ? await draftFromFeedback(em, agent, base, deps.drafter)
      : { changes: input.changes, rationale: input.rationale, sourceFeedbackIds: [] };
  checkDefinition(deps, applied(base, draft.changes));
  const proposal = new ImprovementProposal(
    identity.workspaceId,
    agent.id,
    base.version,
    draft.changes,
    draft.rationale,
    draft.sourceFeedbackIds,
  );
  await em.persist(proposal).flush();
  return presentProposal(proposal, mayReadInstructions(identity));
}

/** One page of an agent's proposals, newest first, optionally of one status. Throws `not_found`. */
export async function listProposals(
  em: EntityManager,
  identity: Identity,
  agentId: string,
  page: { limit: number; cursor?: string; status?: ProposalStatus },
): Promise<{ proposals: ProposalView[]; nextCursor: string | null }> {
  const agent = await findAgent(em, identity.workspaceId, agentId);
  const where = { agentId: agent.id, ...(page.status ? { status: page.status } : {}) };
  const { items, nextCursor } = await findPage(em, ImprovementProposal, where, page);
  return { proposals: items.map((p) => presentProposal(p, mayReadInstructions(identity))), nextCursor };
}

/** A proposal of the workspace. Throws `not_found`. */
export async function getProposal(em: EntityManager, identity: Identity, id: string): Promise<ProposalView> {
  const proposal = await em.findOne(ImprovementProposal, { id, workspaceId: identity.workspaceId });
  if (!proposal) throw errors.notFound('Proposal');
  return presentProposal(proposal, mayReadInstructions(identity));
}

/** The open proposal, locked for the rest of the transaction; 404 for another id, 409 once decided. */
async function lockOpen(tx: EntityManager, identity: Identity, id: string): Promise<ImprovementProposal> {
  const proposal = await tx.findOne(
    ImprovementProposal,
    { id, workspaceId: identity.workspaceId },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
  if (!proposal) throw errors.notFound('Proposal');
  if (proposal.status !== 'open') throw errors.conflict(`The proposal is already ${proposal.status}`);
  return proposal;
}

/**
 * Accepts a proposal: its changes applied to its base version become the agent's new version, when the
 * agent is still at that base version. The proposal and then the agent row are locked, so of two
 * proposals accepted at once on one base version exactly one makes a version and the other finds the
 * agent moved on: 409 `conflict` with `{ baseVersion, currentVersion }`. A decided proposal is 409 too.
 * Throws `not_found` for an unknown proposal or a deleted agent, `validation_error` when the changes
 * name a model or tool that no longer exists.
 */
export async function acceptProposal(
  em: EntityManager,
  deps: AgentDeps,
  identity: Identity,
  id: string,
): Promise<AgentView> {
  return em.transactional(async (tx) => {
    const proposal = await lockOpen(tx, identity, id);
    const agent = await tx.findOne(
      Agent,
      { id: proposal.agentId, workspace: identity.workspaceId, deletedAt: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!agent) throw errors.notFound('Agent');
    requirePhoneAccess(identity, agent.presetId);
    if (agent.currentVersion !== proposal.baseVersion) {
      throw errors.conflict(`The agent moved past version ${proposal.baseVersion}`, {
        baseVersion: proposal.baseVersion,
        currentVersion: agent.currentVersion,
      });
    }
    const base = await tx.findOneOrFail(AgentVersion, { agent: agent.id, version: proposal.baseVersion });
    const next = applied(base, proposal.changes);
    checkDefinition(deps, next);
    agent.currentVersion += 1;
    agent.updatedAt = new Date();
    const version = new AgentVersion(
      agent,
      agent.currentVersion,
      next.instructions,
      next.modelId,
      next.tools,
      next.settings,
    );
    proposal.status = 'accepted';
    proposal.acceptedVersion = agent.currentVersion;
    proposal.updatedAt = new Date();
    tx.persist(version);
    await tx.flush();
    return presentAgent(agent, version, true);
  });
}

/** Rejects an open proposal. Throws `not_found`, or 409 `conflict` once it was decided. */
export async function rejectProposal(em: EntityManager, identity: Identity, id: string): Promise<ProposalView> {
  return em.transactional(async (tx) => {
    const proposal = await lockOpen(tx, identity, id);
    proposal.status = 'rejected';
    proposal.updatedAt = new Date();
    await tx.flush();
    return presentProposal(proposal, mayReadInstructions(identity));
  });
}
