import type { z } from 'zod';
import type { AgentDeps } from '../../../domain/agents/agents';
import { getAgentVersion, restoreAgentVersion } from '../../../domain/agents/versions';
import { versionParams } from '../../schemas/agentVersions';
import { agentOut, versionOut } from '../../schemas/agents';
import { defineRoute, type RouteDef } from '../route';

type VersionParams = z.infer<typeof versionParams>;

/** One version of an agent, and restoring it as a new version (docs/api/agents.md#versions). */
export function agentVersionRoutes(deps: AgentDeps): RouteDef[] {
  return [
    defineRoute<undefined, undefined, VersionParams>({
      method: 'GET',
      path: '/v1/agents/:id/versions/:n',
      summary: 'Get one version of an agent',
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:read' },
      params: versionParams,
      responses: { 200: { description: 'The version', schema: versionOut } },
      async handler(ctx, { params }) {
        ctx.body = await getAgentVersion(ctx.state.em, ctx.state.identity!, params.id, params.n);
      },
    }),
    defineRoute<undefined, undefined, VersionParams>({
      method: 'POST',
      path: '/v1/agents/:id/versions/:n/restore',
      summary: 'Make a new version equal to version n; answers the agent at that new version',
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:write' },
      params: versionParams,
      responses: { 201: { description: 'The agent at its new version', schema: agentOut } },
      async handler(ctx, { params }) {
        ctx.body = await restoreAgentVersion(ctx.state.em, deps, ctx.state.identity!, params.id, params.n);
        ctx.status = 201;
      },
    }),
  ];
}
