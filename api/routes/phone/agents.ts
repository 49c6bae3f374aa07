import type { z } from 'zod';
import type { AgentDeps } from '../../../domain/agents/agents';
import type { ModelRegistry } from '../../../domain/models/registry';
import {
  createPhoneAgent,
  deletePhoneAgent,
  getPhoneAgent,
  listPhoneAgents,
  updatePhoneAgent,
} from '../../../domain/phone/agents';
import { pageQuery } from '../../../domain/shared/pagination';
import { idParams } from '../../schemas/common';
import { phoneAgentBodies, phoneAgentListOut, phoneAgentOut, type PhoneAgentBodies } from '../../schemas/phoneAgents';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

const notPhone = { 404: { description: '`not_found`: unknown, of another workspace, or not a phone agent' } };

/**
 * Phone agents (docs/api/phone.md#phone-agents): the agents of `/v1/agents` built on a phone preset, read with
 * `phone:read`, changed with `phone:manage` and, as every agent change, `agents:write`.
 */
export function phoneAgentRoutes(deps: AgentDeps & { models: Pick<ModelRegistry, 'get' | 'list'> }): RouteDef[] {
  const { createPhoneAgentBody, updatePhoneAgentBody } = phoneAgentBodies({
    tools: deps.tools.names(),
    models: deps.models.list().map((m) => m.id),
  });
  return [
    defineRoute<z.infer<PhoneAgentBodies['createPhoneAgentBody']>>({
      method: 'POST',
      path: '/v1/phone/agents',
      summary: 'Create a phone agent (version 1); needs `agents:write` too',
      tag: 'phone',
      access: { auth: 'any', scope: 'phone:manage' },
      body: createPhoneAgentBody,
      responses: { 201: { description: 'Created', schema: phoneAgentOut } },
      async handler(ctx, { body }) {
        ctx.body = await createPhoneAgent(ctx.state.em, deps, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/phone/agents',
      summary: 'List phone agents with their numbers, newest first',
      tag: 'phone',
      access: { auth: 'any', scope: 'phone:read' },
      query: pageQuery,
      responses: { 200: { description: 'Phone agents', schema: phoneAgentListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listPhoneAgents(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/phone/agents/:id',
      summary: 'Get a phone agent with its numbers',
      tag: 'phone',
      access: { auth: 'any', scope: 'phone:read' },
      params: idParams,
      responses: { 200: { description: 'The phone agent', schema: phoneAgentOut }, ...notPhone },
      async handler(ctx, { params }) {
        ctx.body = await getPhoneAgent(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<z.infer<PhoneAgentBodies['updatePhoneAgentBody']>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/phone/agents/:id',
      summary: 'Change a phone agent (a definition change is a new version); needs `agents:write` too',
      tag: 'phone',
      access: { auth: 'any', scope: 'phone:manage' },
      params: idParams,
      body: updatePhoneAgentBody,
      responses: { 200: { description: 'The phone agent', schema: phoneAgentOut }, ...notPhone },
      async handler(ctx, { params, body }) {
        ctx.body = await updatePhoneAgent(ctx.state.em, deps, ctx.state.identity!, params.id, body);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/phone/agents/:id',
      summary: 'Delete a phone agent; its past runs and calls stay readable; needs `agents:write` too',
      tag: 'phone',
      access: { auth: 'any', scope: 'phone:manage' },
      params: idParams,
      responses: { 204: { description: 'Deleted' }, ...notPhone },
      async handler(ctx, { params }) {
        await deletePhoneAgent(ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
