import type { ImprovementProposal, ProposalChanges, ProposalStatus } from '../../db/entities/ImprovementProposal';

export interface ProposalView {
  id: string;
  agentId: string;
  baseVersion: number;
  status: ProposalStatus;
  changes: ProposalChanges;
  rationale: string;
  sourceFeedbackIds: string[];
  createdAt: string;
}

/**
 * A proposal as the caller may see it: `changes.instructions` (for a draft from feedback, the base version's
 * instructions and more) only when the caller may read an agent's instructions, as on the agent itself
 * (docs/api/proposals.md).
 */
export function presentProposal(p: ImprovementProposal, withInstructions: boolean): ProposalView {
  const { instructions, ...visible } = p.changes;
  return {
    id: p.id,
    agentId: p.agentId,
    baseVersion: p.baseVersion,
    status: p.status,
    changes: withInstructions ? p.changes : visible,
    rationale: p.rationale,
    sourceFeedbackIds: p.sourceFeedbackIds,
    createdAt: p.createdAt.toISOString(),
  };
}
