import type { z } from 'zod';
import type { AgentDeps } from '../../../domain/agents/agents';
import type { ConversationDeps } from '../../../domain/conversations';
import { askAgentCopilot } from '../../../domain/copilots/agentCopilot';
import { askDataSourceCopilot } from '../../../domain/copilots/dataSourceCopilot';
import type { SourceDeps } from '../../../domain/dataSources/connection';
import { idParams } from '../../schemas/common';
import { agentCopilotBody, agentCopilotOut, dataSourceCopilotBody, dataSourceCopilotOut } from '../../schemas/copilots';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

const turnErrors = {
  402: { description: '`billing.insufficient_credits`: the workspace cannot pay for the turn' },
  409: { description: '`conflict`: the named conversation has ended' },
  503: { description: '`unavailable`: no reply in time; retry with the same Idempotency-Key' },
};

/** The agent copilot and the data-source copilot (docs/api/copilots.md): conversations with the reply in the response. */
export function copilotRoutes(
  deps: Omit<ConversationDeps, 'em'> & { agents: AgentDeps; sources: SourceDeps },
): RouteDef[] {
  return [
    defineRoute<z.infer<typeof agentCopilotBody>, undefined, IdParams>({
      method: 'POST',
      path: '/v1/agents/:id/copilot',
      summary: 'Ask the agent copilot; a change it suggests becomes an improvement proposal',
      tag: 'copilots',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      body: agentCopilotBody,
      // The key is the message's id, kept with the message (domain/conversations/turns.ts).
      idempotency: 'own',
      responses: { 200: { description: 'The reply', schema: agentCopilotOut }, ...turnErrors },
      async handler(ctx, { params, body }) {
        const key = ctx.get('Idempotency-Key') || null;
        ctx.body = await askAgentCopilot({ ...deps, em: ctx.state.em }, ctx.state.identity!, params.id, body, key);
      },
    }),
    defineRoute<z.infer<typeof dataSourceCopilotBody>, undefined, IdParams>({
      method: 'POST',
      path: '/v1/data-sources/:id/copilot',
      summary: 'Ask the data-source copilot; it answers with a structured read (never SQL) and its result',
      tag: 'copilots',
      access: { auth: 'any', scope: 'data_sources:read' },
      params: idParams,
      body: dataSourceCopilotBody,
      idempotency: 'own',
      responses: {
        200: { description: 'The reply', schema: dataSourceCopilotOut },
        ...turnErrors,
        409: { description: '`conflict`: the named conversation has ended, or the source cannot be reached' },
      },
      async handler(ctx, { params, body }) {
        const key = ctx.get('Idempotency-Key') || null;
        ctx.body = await askDataSourceCopilot({ ...deps, em: ctx.state.em }, ctx.state.identity!, params.id, body, key);
      },
    }),
  ];
}
