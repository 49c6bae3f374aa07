import type { z } from 'zod';
import type { AgentDeps } from '../../../domain/agents/agents';
import { PRESETS } from '../../../domain/agents/presets';
import type { ModelRegistry } from '../../../domain/models/registry';
import {
  acceptProposal,
  createProposal,
  getProposal,
  listProposals,
  rejectProposal,
  type ProposalInput,
} from '../../../domain/proposals/proposals';
import { agentBodies, agentOut } from '../../schemas/agents';
import { idParams } from '../../schemas/common';
import { createProposalBody, proposalListOut, proposalListQuery, proposalOut } from '../../schemas/proposals';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

/** Improvement proposals: suggested changes to an agent, accepted as a new version (docs/api/proposals.md). */
export function proposalRoutes(
  deps: AgentDeps & { models: Pick<ModelRegistry, 'get' | 'list' | 'assistant' | 'turn'> },
): RouteDef[] {
  const { proposalChanges } = agentBodies({
    tools: deps.tools.names(),
    models: deps.models.list().map((m) => m.id),
    presets: PRESETS.map((p) => p.id),
  });
  const body = createProposalBody(proposalChanges);
  const read = { auth: 'any', scope: 'agents:read' } as const;
  const write = { auth: 'any', scope: 'agents:write' } as const;
  const decided = { 409: { description: '`conflict`: already decided, or the agent moved past its base version' } };
  return [
    defineRoute<z.infer<typeof body>, undefined, IdParams>({
      method: 'POST',
      path: '/v1/agents/:id/proposals',
      creates: '/v1/proposals',
      summary: 'Propose a change to an agent, or draft one from its corrected feedback',
      tag: 'proposals',
      access: write,
      params: idParams,
      body,
      responses: {
        201: { description: 'Created', schema: proposalOut },
        409: { description: '`conflict`: `fromFeedback` but no feedback with a correctedOutput' },
      },
      async handler(ctx, { params, body: input }) {
        const drafting = { ...deps, drafter: deps.models };
        ctx.body = await createProposal(ctx.state.em, drafting, ctx.state.identity!, params.id, input as ProposalInput);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof proposalListQuery>, IdParams>({
      method: 'GET',
      path: '/v1/agents/:id/proposals',
      summary: "List an agent's proposals, newest first, optionally of one status",
      tag: 'proposals',
      access: read,
      params: idParams,
      query: proposalListQuery,
      responses: { 200: { description: 'Proposals', schema: proposalListOut } },
      async handler(ctx, { params, query }) {
        ctx.body = await listProposals(ctx.state.em, ctx.state.identity!, params.id, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/proposals/:id',
      summary: 'Get a proposal',
      tag: 'proposals',
      access: read,
      params: idParams,
      responses: { 200: { description: 'The proposal', schema: proposalOut } },
      async handler(ctx, { params }) {
        ctx.body = await getProposal(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/proposals/:id/accept',
      summary: "Accept a proposal: its changes become the agent's new version",
      tag: 'proposals',
      access: write,
      params: idParams,
      responses: { 201: { description: 'The agent at its new version', schema: agentOut }, ...decided },
      async handler(ctx, { params }) {
        ctx.body = await acceptProposal(ctx.state.em, deps, ctx.state.identity!, params.id);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/proposals/:id/reject',
      summary: 'Reject a proposal',
      tag: 'proposals',
      access: write,
      params: idParams,
      responses: { 200: { description: 'The rejected proposal', schema: proposalOut }, ...decided },
      async handler(ctx, { params }) {
        ctx.body = await rejectProposal(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
  ];
}
