import { z } from 'zod';
import {
  createAgent,
  deleteAgent,
  getAgent,
  getAgentDefinition,
  listAgents,
  listAgentVersions,
  updateAgent,
  type AgentDeps,
} from '../../domain/agents/agents';
import { PRESETS } from '../../domain/agents/presets';
import type { ModelRegistry } from '../../domain/models/registry';
import { pageQuery } from '../../domain/shared/pagination';
import {
  agentBodies,
  agentListOut,
  agentListQuery,
  agentOut,
  definitionOut,
  versionListOut,
  type AgentBodies,
} from '../schemas/agents';
import { idParams } from '../schemas/common';
import { defineRoute, type RouteDef } from './route';

type IdParams = z.infer<typeof idParams>;

/** Agents with immutable numbered versions (docs/api/agents.md). */
export function agentRoutes(deps: AgentDeps & { models: Pick<ModelRegistry, 'get' | 'list'> }): RouteDef[] {
  const { createAgentBody, updateAgentBody } = agentBodies({
    tools: deps.tools.names(),
    models: deps.models.list().map((m) => m.id),
    presets: PRESETS.map((p) => p.id),
  });
  return [
    defineRoute<z.infer<AgentBodies['createAgentBody']>>({
      method: 'POST',
      path: '/v1/agents',
      summary: 'Create an agent (version 1)',
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:write' },
      body: createAgentBody,
      responses: { 201: { description: 'Created', schema: agentOut } },
      async handler(ctx, { body }) {
        ctx.body = await createAgent(ctx.state.em, deps, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof agentListQuery>>({
      method: 'GET',
      path: '/v1/agents',
      summary: "List agents, newest first; `projectId` keeps one project's",
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:read' },
      query: agentListQuery,
      responses: { 200: { description: 'Agents', schema: agentListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listAgents(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/agents/:id',
      summary: 'Get an agent at its current version',
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:read' },
      params: idParams,
      responses: { 200: { description: 'The agent', schema: agentOut } },
      async handler(ctx, { params }) {
        ctx.body = await getAgent(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<z.infer<AgentBodies['updateAgentBody']>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/agents/:id',
      summary: 'Rename an agent or change its definition (a definition change makes a new version)',
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      body: updateAgentBody,
      responses: { 200: { description: 'The agent', schema: agentOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await updateAgent(ctx.state.em, deps, ctx.state.identity!, params.id, body);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/agents/:id',
      summary: 'Delete an agent (its past runs stay readable)',
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        await deleteAgent(ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>, IdParams>({
      method: 'GET',
      path: '/v1/agents/:id/versions',
      summary: "List an agent's versions, newest first",
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:read' },
      params: idParams,
      query: pageQuery,
      responses: { 200: { description: 'Versions', schema: versionListOut } },
      async handler(ctx, { params, query }) {
        ctx.body = await listAgentVersions(ctx.state.em, ctx.state.identity!, params.id, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/agents/:id/definition',
      summary: "The agent's definition; instructions and saved reads only with runner:run too",
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:read' },
      params: idParams,
      responses: { 200: { description: 'The definition', schema: definitionOut } },
      async handler(ctx, { params }) {
        ctx.body = await getAgentDefinition(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
  ];
}
