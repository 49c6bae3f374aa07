import type { z } from 'zod';
import { FLOW_TEMPLATES } from '../../../domain/flows/catalog';
import {
  createFlow,
  deleteFlow,
  getFlow,
  listFlows,
  regenerateWebhookToken,
  updateFlow,
  type FlowDeps,
} from '../../../domain/flows/flows';
import { runFlowManually } from '../../../domain/flows/runs';
import { idParams } from '../../schemas/common';
import {
  createFlowBody,
  flowListOut,
  flowOut,
  flowRunOut,
  flowTemplateListOut,
  listFlowsQuery,
  runFlowBody,
  updateFlowBody,
  webhookTokenOut,
} from '../../schemas/flows';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

/** Flows: a trigger and steps that run in order (docs/api/flows.md). */
export function flowRoutes(deps: FlowDeps): RouteDef[] {
  return [
    defineRoute<z.infer<typeof createFlowBody>>({
      method: 'POST',
      path: '/v1/flows',
      summary: 'Create a flow from a definition or a template',
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:manage' },
      body: createFlowBody,
      responses: { 201: { description: 'Created; `webhookUrl` is shown here once', schema: flowOut } },
      // a webhook trigger's URL holds its token, shown once
      idempotency: 'secret',
      async handler(ctx, { body }) {
        ctx.body = await createFlow(deps, ctx.state.em, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof listFlowsQuery>>({
      method: 'GET',
      path: '/v1/flows',
      summary: 'List flows, newest first',
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:read' },
      query: listFlowsQuery,
      responses: { 200: { description: 'Flows', schema: flowListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listFlows(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/flow-templates',
      summary: 'The built-in flow templates',
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:read' },
      responses: { 200: { description: 'Templates', schema: flowTemplateListOut } },
      async handler(ctx) {
        ctx.body = { templates: FLOW_TEMPLATES };
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/flows/:id',
      summary: 'Get a flow',
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:read' },
      params: idParams,
      responses: { 200: { description: 'The flow', schema: flowOut } },
      async handler(ctx, { params }) {
        ctx.body = await getFlow(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<z.infer<typeof updateFlowBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/flows/:id',
      summary: 'Change a flow: name, project, status (pause), trigger or steps',
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:manage' },
      params: idParams,
      body: updateFlowBody,
      responses: { 200: { description: 'The flow', schema: flowOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await updateFlow(deps, ctx.state.em, ctx.state.identity!, params.id, body);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/flows/:id',
      summary: 'Delete a flow, its runs and its schedule; unfinished runs are cancelled',
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:manage' },
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        await deleteFlow(deps, ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/flows/:id/webhook-token',
      summary: 'A new webhook token for the flow; the previous one stops working at once',
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:manage' },
      params: idParams,
      responses: {
        200: { description: 'The webhook URL, holding the token (shown once)', schema: webhookTokenOut },
        409: { description: "`conflict`: the flow's trigger is not a webhook" },
      },
      idempotency: 'secret',
      async handler(ctx, { params }) {
        ctx.body = await regenerateWebhookToken(deps, ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<z.infer<typeof runFlowBody>, undefined, IdParams>({
      method: 'POST',
      path: '/v1/flows/:id/run',
      creates: '/v1/flow-runs',
      summary: 'Run a flow now; `input` is what `{{trigger.<path>}}` reads',
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:manage' },
      params: idParams,
      body: runFlowBody,
      responses: {
        202: { description: 'Accepted; the flow run is queued', schema: flowRunOut },
        409: { description: '`conflict`: the flow is paused' },
      },
      async handler(ctx, { params, body }) {
        ctx.body = await runFlowManually(deps, ctx.state.em, ctx.state.identity!, params.id, body?.input ?? {});
        ctx.status = 202;
      },
    }),
  ];
}
