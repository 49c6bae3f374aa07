import { z } from 'zod';
import { PROPOSAL_STATUSES } from '../../db/entities/ImprovementProposal';
import { pageQuery } from '../../domain/shared/pagination';
import type { AgentBodies } from './agents';
import { settingsOut } from './agents';
import { text } from './text';

/** `POST /v1/agents/{id}/proposals`: a change with its rationale, or a draft from feedback. */
export function createProposalBody(changes: AgentBodies['proposalChanges']) {
  return z.union([
    z.strictObject({ changes, rationale: text(1, 10_000) }),
    z.strictObject({ fromFeedback: z.literal(true) }),
  ]);
}

export const proposalListQuery = pageQuery.extend({ status: z.enum(PROPOSAL_STATUSES).optional() });

export const proposalOut = z.object({
  id: z.uuid(),
  agentId: z.uuid(),
  baseVersion: z.number().int(),
  status: z.enum(PROPOSAL_STATUSES),
  changes: z.object({
    instructions: z.string().nullable().optional(),
    modelId: z.string().optional(),
    tools: z.array(z.string()).optional(),
    settings: settingsOut.partial().optional(),
  }),
  rationale: z.string(),
  sourceFeedbackIds: z.array(z.uuid()),
  createdAt: z.iso.datetime(),
});

export const proposalListOut = z.object({ proposals: z.array(proposalOut), nextCursor: z.string().nullable() });
