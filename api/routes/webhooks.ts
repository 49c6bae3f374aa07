import { z } from 'zod';
import { listDeliveries, redeliver } from '../../domain/webhooks/deliveries';
import { createSubscription, deleteSubscription, listSubscriptions } from '../../domain/webhooks/subscriptions';
import type { Config } from '../../platform/config';
import { createResolver } from '../../platform/net/dnsServers';
import { createSecretBox } from '../../platform/secrets';
import { pageQuery } from '../../domain/shared/pagination';
import type { Temporal } from '../../platform/temporal';
import { idParams } from '../schemas/common';
import { createWebhookBody, deliveryListOut, deliveryOut, webhookListOut, webhookOut } from '../schemas/webhooks';
import { auditContext } from '../auditContext';
import { defineRoute, type RouteDef } from './route';

type IdParams = z.infer<typeof idParams>;
const deliveryParams = z.object({ id: z.uuid(), deliveryId: z.uuid() });
const access = { auth: 'any', scope: 'webhooks:manage' } as const;

/** Subscriptions, their delivery log, and redelivery of a finished delivery (docs/api/webhooks.md). */
export function webhookRoutes(deps: { config: Config; temporal: Temporal }): RouteDef[] {
  const resolver = createResolver(deps.config.dnsServers);
  const box = createSecretBox(deps.config.secretKeys);
  return [
    defineRoute<z.infer<typeof createWebhookBody>>({
      method: 'POST',
      path: '/v1/webhooks',
      summary: 'Subscribe a public URL to run status events; the secret is write-only',
      tag: 'webhooks',
      access,
      body: createWebhookBody,
      responses: {
        201: { description: 'Subscribed', schema: webhookOut },
        409: { description: '`conflict`: the workspace holds the most subscriptions it may' },
      },
      async handler(ctx, { body }) {
        const { allowPrivateWebhooks: allowPrivate, maxWebhooks } = deps.config;
        const opts = { allowPrivate, resolver, maxWebhooks, box };
        ctx.body = await createSubscription(
          ctx.state.em,
          ctx.state.identity!.workspaceId,
          body,
          opts,
          auditContext(ctx),
        );
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/webhooks',
      summary: 'List subscriptions (never their secrets)',
      tag: 'webhooks',
      access,
      query: pageQuery,
      responses: { 200: { description: 'Subscriptions, newest first', schema: webhookListOut } },
      async handler(ctx, { query }) {
        const { items, nextCursor } = await listSubscriptions(ctx.state.em, ctx.state.identity!.workspaceId, query);
        ctx.body = { webhooks: items, nextCursor };
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/webhooks/:id',
      summary: 'Remove a subscription; deliveries still retrying stop',
      tag: 'webhooks',
      access,
      params: idParams,
      responses: { 204: { description: 'Removed' } },
      async handler(ctx, { params }) {
        await deleteSubscription(ctx.state.em, ctx.state.identity!.workspaceId, params.id, auditContext(ctx));
        ctx.status = 204;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>, IdParams>({
      method: 'GET',
      path: '/v1/webhooks/:id/deliveries',
      summary: "A subscription's delivery log, newest first",
      tag: 'webhooks',
      access,
      params: idParams,
      query: pageQuery,
      responses: { 200: { description: 'Deliveries', schema: deliveryListOut } },
      async handler(ctx, { params, query }) {
        const workspaceId = ctx.state.identity!.workspaceId;
        const { items, nextCursor } = await listDeliveries(ctx.state.em, workspaceId, params.id, query);
        ctx.body = { deliveries: items, nextCursor };
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof deliveryParams>>({
      method: 'POST',
      path: '/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
      summary: 'Deliver a finished delivery again: 3 new attempts, same body and id',
      tag: 'webhooks',
      access,
      params: deliveryParams,
      responses: {
        202: { description: 'Redelivery started', schema: deliveryOut },
        409: { description: '`conflict`: the delivery is still in flight' },
      },
      async handler(ctx, { params }) {
        const temporal = { temporal: deps.temporal, config: deps.config.temporal };
        const workspaceId = ctx.state.identity!.workspaceId;
        ctx.body = await redeliver(ctx.state.em, temporal, workspaceId, params.id, params.deliveryId);
        ctx.status = 202;
      },
    }),
  ];
}
