import { EntitySchema } from '@mikro-orm/core';
import { Agent, type AgentSettings } from './Agent';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

export const PROPOSAL_STATUSES = ['open', 'accepted', 'rejected'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** The definition fields a proposal changes; what it leaves out stays as the base version has it. */
export interface ProposalChanges {
  instructions?: string | null;
  settings?: Partial<AgentSettings>;
  modelId?: string;
  tools?: string[];
}

/** A suggested change to an agent's definition, made against one version (docs/api/proposals.md). */
export class ImprovementProposal extends BaseEntity {
  status: ProposalStatus = 'open';
  /** The version accepting it made. */
  acceptedVersion: number | null = null;

  constructor(
    public workspaceId: string,
    public agentId: string,
    public baseVersion: number,
    public changes: ProposalChanges,
    public rationale: string,
    public sourceFeedbackIds: string[],
  ) {
    super();
  }
}

export const ImprovementProposalSchema = new EntitySchema<ImprovementProposal, BaseEntity>({
  class: ImprovementProposal,
  extends: 'BaseEntity',
  tableName: 'improvement_proposals',
  // keyset pagination newest first within the agent, all or of one status
  indexes: [
    keysetIndex('improvement_proposals_agent_id_created_at_index', 'improvement_proposals', 'agent_id'),
    keysetIndex(
      'improvement_proposals_agent_id_status_created_at_index',
      'improvement_proposals',
      'agent_id',
      'status',
    ),
  ],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'improvement_proposals_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    agentId: {
      kind: 'm:1',
      entity: () => Agent,
      mapToPk: true,
      fieldName: 'agent_id',
      foreignKeyName: 'improvement_proposals_agent_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    baseVersion: { type: 'integer' },
    status: { type: 'string', length: 16, default: null },
    changes: { type: 'json' },
    rationale: { type: 'text' },
    sourceFeedbackIds: { type: 'json' },
    acceptedVersion: { type: 'integer', nullable: true },
  },
});
