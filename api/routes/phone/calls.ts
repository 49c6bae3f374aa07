import type { z } from 'zod';
import { getCall, listCalls, placeOutboundCall, type OutboundDeps } from '../../../domain/phone/calls';
import { idParams } from '../../schemas/common';
import { callListOut, callListQuery, callOut, createCallBody } from '../../schemas/phone';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

/** Call records and outbound calls (docs/api/phone.md#calls). */
export function phoneCallRoutes(deps: OutboundDeps): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof callListQuery>>({
      method: 'GET',
      path: '/v1/phone/calls',
      summary: "List calls, newest first; `numberId` keeps one number's",
      tag: 'phone',
      access: { auth: 'any', scope: 'phone:read' },
      query: callListQuery,
      responses: { 200: { description: 'Calls', schema: callListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listCalls(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/phone/calls/:id',
      summary: 'Get a call with its transcript, duration and cost',
      tag: 'phone',
      access: { auth: 'any', scope: 'phone:read' },
      params: idParams,
      responses: { 200: { description: 'The call', schema: callOut } },
      async handler(ctx, { params }) {
        ctx.body = await getCall(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<z.infer<typeof createCallBody>>({
      method: 'POST',
      path: '/v1/phone/calls',
      summary: "Place an outbound call through the provider; the number's agent talks",
      tag: 'phone',
      access: { auth: 'any', scope: 'phone:manage' },
      body: createCallBody,
      responses: {
        201: { description: 'The call, `ringing`; placing it is retried by its workflow', schema: callOut },
        503: { description: '`unavailable`: Temporal did not answer; nothing was placed' },
      },
      async handler(ctx, { body }) {
        ctx.body = await placeOutboundCall(ctx.state.em, deps, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
  ];
}
