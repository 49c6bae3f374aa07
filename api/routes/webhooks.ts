import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { deliveryWorkflowId, webhookTaskQueue } from '../../domain/webhooks/dispatch';
import { NotPublicAddressError, resolvePublicUrl } from '../../platform/net/publicAddress';
import { WebhookDelivery, WebhookSubscription } from '../../db/entities/Webhook';
import type { Config } from '../../platform/config';
import { ApiError, errors } from '../../domain/errors';
import { findPage, pageQuery } from '../../domain/pagination';
import { idParams } from '../schemas/common';
import {
  createWebhookBody,
  deliveryListOut,
  deliveryOut,
  serializeDelivery,
  serializeWebhook,
  webhookListOut,
  webhookOut,
} from '../schemas/webhooks';
import type { Temporal } from '../../platform/temporal';
import { defineRoute, type RouteDef } from './route';

type IdParams = z.infer<typeof idParams>;
const deliveryParams = z.object({ id: z.uuid(), deliveryId: z.uuid() });
const access = { auth: 'any', scope: 'webhooks:manage' } as const;

async function findSubscription(em: EntityManager, workspaceId: string, id: string): Promise<WebhookSubscription> {
  const sub = await em.findOne(WebhookSubscription, { id, workspaceId, deletedAt: null });
  if (!sub) throw errors.notFound('Webhook');
  return sub;
}

/** spec §4.2 rule 1: the URL must resolve to public addresses only, unless SVC_ALLOW_PRIVATE_WEBHOOKS. */
async function checkUrl(url: string, allowPrivate: boolean): Promise<string> {
  try {
    return (await resolvePublicUrl(url, { allowPrivate })).url.toString();
  } catch (err) {
    const reason = err instanceof NotPublicAddressError ? err.reason : 'the host could not be resolved';
    throw new ApiError('webhook.url_not_public', `The webhook URL is not a public http(s) address: ${reason}`, {
      issues: [{ path: 'url', message: reason }],
    });
  }
}

/** CONTRACT §6: subscriptions, their delivery log, and redelivery of a failed delivery. */
export function webhookRoutes(deps: { config: Config; temporal: Temporal }): RouteDef[] {
  return [
    defineRoute<z.infer<typeof createWebhookBody>>({
      method: 'POST',
      path: '/v1/webhooks',
      summary: 'Subscribe a public URL to run status events; the secret is write-only',
      tag: 'webhooks',
      access,
      body: createWebhookBody,
      responses: { 201: { description: 'Subscribed', schema: webhookOut } },
      async handler(ctx, { body }) {
        const url = await checkUrl(body.url, deps.config.allowPrivateWebhooks);
        const sub = new WebhookSubscription(ctx.state.identity!.workspaceId, url, body.events, body.secret);
        await ctx.state.em.persist(sub).flush();
        ctx.status = 201;
        ctx.body = serializeWebhook(sub);
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
        const where = { workspaceId: ctx.state.identity!.workspaceId, deletedAt: null };
        const { items, nextCursor } = await findPage(ctx.state.em, WebhookSubscription, where, query);
        ctx.body = { webhooks: items.map(serializeWebhook), nextCursor };
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
        const sub = await findSubscription(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        sub.deletedAt = new Date();
        await ctx.state.em.flush();
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
        const em = ctx.state.em;
        const sub = await findSubscription(em, ctx.state.identity!.workspaceId, params.id);
        const { items, nextCursor } = await findPage(em, WebhookDelivery, { subscriptionId: sub.id }, query);
        ctx.body = { deliveries: items.map(serializeDelivery), nextCursor };
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof deliveryParams>>({
      method: 'POST',
      path: '/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
      summary: 'Deliver a failed delivery again: 3 new attempts, same body and id',
      tag: 'webhooks',
      access,
      params: deliveryParams,
      responses: { 202: { description: 'Redelivery started', schema: deliveryOut } },
      async handler(ctx, { params }) {
        const em = ctx.state.em;
        const sub = await findSubscription(em, ctx.state.identity!.workspaceId, params.id);
        // Claim the failed delivery for a new round in one statement: two concurrent redelivers start one.
        const claimed: Array<{ round: number }> = await em.getConnection().execute(
          `update webhook_deliveries set status = 'pending', round = round + 1, updated_at = now()
           where id = ? and subscription_id = ? and status = 'failed' returning round`,
          [params.deliveryId, sub.id],
        );
        if (claimed.length === 0) {
          const existing = await em.findOne(WebhookDelivery, { id: params.deliveryId, subscriptionId: sub.id });
          if (!existing) throw errors.notFound('Delivery');
          throw errors.conflict(`Only a failed delivery can be redelivered; this one is ${existing.status}`, {
            status: existing.status,
          });
        }
        await deps.temporal
          .call(() =>
            deps.temporal.client.workflow.start('webhookDeliveryWorkflow', {
              workflowId: deliveryWorkflowId(params.deliveryId, claimed[0].round),
              taskQueue: deps.config.temporal.taskQueue,
              args: [
                { deliveryId: params.deliveryId, deliveryQueue: webhookTaskQueue(deps.config.temporal.taskQueue) },
              ],
            }),
          )
          .catch(async (err) => {
            // Temporal did not take it: the delivery stays failed, so the caller can ask again.
            await em.nativeUpdate(WebhookDelivery, { id: params.deliveryId }, { status: 'failed' });
            throw err;
          });
        ctx.status = 202;
        ctx.body = serializeDelivery(await em.fork().findOneOrFail(WebhookDelivery, params.deliveryId));
      },
    }),
  ];
}
