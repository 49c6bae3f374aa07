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

export function presentProposal(p: ImprovementProposal): ProposalView {
  return {
    id: p.id,
    agentId: p.agentId,
    baseVersion: p.baseVersion,
    status: p.status,
    changes: p.changes,
    rationale: p.rationale,
    sourceFeedbackIds: p.sourceFeedbackIds,
    createdAt: p.createdAt.toISOString(),
  };
}
