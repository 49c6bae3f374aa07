import { z } from 'zod';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  listOutputDeliveries,
} from '../../../domain/outputs/connections';
import { redeliverOutput } from '../../../domain/outputs/redeliver';
import { pageQuery } from '../../../domain/shared/pagination';
import type { Config } from '../../../platform/config';
import { createResolver } from '../../../platform/net/dnsServers';
import { createSecretBox } from '../../../platform/secrets';
import type { Temporal } from '../../../platform/temporal';
import { idParams } from '../../schemas/common';
import {
  createOutputConnectionBody,
  outputConnectionListOut,
  outputConnectionOut,
  outputDeliveryListOut,
  outputDeliveryOut,
} from '../../schemas/outputConnections';
import { auditContext } from '../../auditContext';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;
const deliveryParams = z.object({ id: z.uuid(), deliveryId: z.uuid() });
const access = { auth: 'any', scope: 'webhooks:manage' } as const;

/** Save-output connections, their delivery logs and redelivery (docs/api/output-connections.md). */
export function outputConnectionRoutes(deps: { config: Config; temporal: Temporal }): RouteDef[] {
  const resolver = createResolver(deps.config.dnsServers);
  const box = createSecretBox(deps.config.secretKeys);
  return [
    defineRoute<z.infer<typeof createOutputConnectionBody>>({
      method: 'POST',
      path: '/v1/output-connections',
      summary: 'Create a save-output connection (http: a public URL; the secret is write-only)',
      tag: 'output-connections',
      access,
      body: createOutputConnectionBody,
      responses: { 201: { description: 'Created', schema: outputConnectionOut } },
      async handler(ctx, { body }) {
        const opts = { allowPrivate: deps.config.allowPrivateWebhooks, resolver, box };
        ctx.body = await createConnection(ctx.state.em, ctx.state.identity!.workspaceId, body, opts, auditContext(ctx));
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/output-connections',
      summary: 'List save-output connections, newest first (never their secrets)',
      tag: 'output-connections',
      access,
      query: pageQuery,
      responses: { 200: { description: 'Connections', schema: outputConnectionListOut } },
      async handler(ctx, { query }) {
        const { items, nextCursor } = await listConnections(ctx.state.em, ctx.state.identity!.workspaceId, query);
        ctx.body = { outputConnections: items, nextCursor };
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/output-connections/:id',
      summary: 'Get a save-output connection',
      tag: 'output-connections',
      access,
      params: idParams,
      responses: { 200: { description: 'The connection', schema: outputConnectionOut } },
      async handler(ctx, { params }) {
        ctx.body = await getConnection(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/output-connections/:id',
      summary: 'Remove a save-output connection; deliveries still retrying stop',
      tag: 'output-connections',
      access,
      params: idParams,
      responses: { 204: { description: 'Removed' } },
      async handler(ctx, { params }) {
        await deleteConnection(ctx.state.em, ctx.state.identity!.workspaceId, params.id, auditContext(ctx));
        ctx.status = 204;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>, IdParams>({
      method: 'GET',
      path: '/v1/output-connections/:id/deliveries',
      summary: "A connection's delivery log, newest first",
      tag: 'output-connections',
      access,
      params: idParams,
      query: pageQuery,
      responses: { 200: { description: 'Deliveries', schema: outputDeliveryListOut } },
      async handler(ctx, { params, query }) {
        const workspaceId = ctx.state.identity!.workspaceId;
        const { items, nextCursor } = await listOutputDeliveries(ctx.state.em, workspaceId, params.id, query);
        ctx.body = { deliveries: items, nextCursor };
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof deliveryParams>>({
      method: 'POST',
      path: '/v1/output-connections/:id/deliveries/:deliveryId/redeliver',
      summary: 'Deliver a finished delivery again: 3 new attempts, same body and id',
      tag: 'output-connections',
      access,
      params: deliveryParams,
      responses: {
        202: { description: 'Redelivery started', schema: outputDeliveryOut },
        409: {
          description: "`conflict`: the delivery is still being delivered, or is a saved table's that succeeded",
        },
      },
      async handler(ctx, { params }) {
        const temporal = { temporal: deps.temporal, config: deps.config.temporal };
        const workspaceId = ctx.state.identity!.workspaceId;
        ctx.body = await redeliverOutput(ctx.state.em, temporal, workspaceId, params.id, params.deliveryId);
        ctx.status = 202;
      },
    }),
  ];
}
