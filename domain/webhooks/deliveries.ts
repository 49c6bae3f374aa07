import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookDelivery } from '../../db/entities/Webhook';
import type { Config } from '../../platform/config';
import type { Temporal } from '../../platform/temporal';
import { errors } from '../errors';
import { findPage } from '../shared/pagination';
import { redeliver as redeliverLogged } from '../deliveries/deliveryLog';
import { WEBHOOK_DELIVERIES } from './delivery';
import { deliveryWorkflowId } from './dispatch';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';
import { webhookTaskQueue } from '../../workflows/taskQueues';
import { webhookDeliveryWorkflow } from '../../workflows/webhookDelivery';
import { serializeDelivery, type DeliveryView } from './presenters';
import { findSubscription } from './subscriptions';

/**
 * A subscription's delivery log, newest first, one page.
 * @throws `not_found` when the subscription is not a live one of the workspace
 */
export async function listDeliveries(
  em: EntityManager,
  workspaceId: string,
  subscriptionId: string,
  page: { limit: number; cursor?: string },
): Promise<{ items: DeliveryView[]; nextCursor: string | null }> {
  const sub = await findSubscription(em, workspaceId, subscriptionId);
  const { items, nextCursor } = await findPage(em, WebhookDelivery, { subscriptionId: sub.id }, page);
  return { items: items.map(serializeDelivery), nextCursor };
}

/**
 * Delivers a finished delivery again (`failed`, or `succeeded` when a receiver lost it): a new round of 3
 * attempts with the same body and id, as its own delivery workflow (`webhook-<deliveryId>-<round>`, search
 * attribute `SvcWorkspaceId`). Returns the delivery as it is once started.
 * @throws `not_found` for an unknown subscription or delivery; `conflict` while the delivery is still
 *   `pending`; whatever the Temporal call throws, with the delivery left as it was so the caller can ask again
 */
export async function redeliver(
  em: EntityManager,
  deps: { temporal: Temporal; config: Config['temporal'] },
  workspaceId: string,
  subscriptionId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  const sub = await findSubscription(em, workspaceId, subscriptionId);
  const { temporal, config } = deps;
  // Failed or succeeded (a receiver that lost an event asks again); one still pending is in flight already.
  const claimed = await redeliverLogged(
    em,
    WEBHOOK_DELIVERIES,
    { deliveryId, ownerId: sub.id, statuses: ['failed', 'succeeded'] },
    ({ round }) =>
      temporal.call(() =>
        temporal.client.workflow.start(webhookDeliveryWorkflow, {
          workflowId: deliveryWorkflowId(deliveryId, round),
          taskQueue: config.taskQueue,
          args: [{ deliveryId, deliveryQueue: webhookTaskQueue(config.taskQueue) }],
          typedSearchAttributes: [{ key: SvcWorkspaceId, value: workspaceId }],
        }),
      ),
  );
  if (!claimed) {
    const existing = await em.findOne(WebhookDelivery, { id: deliveryId, subscriptionId: sub.id });
    if (!existing) throw errors.notFound('Delivery');
    throw errors.conflict('This delivery is being delivered now; redeliver it once it has finished', {
      status: existing.status,
    });
  }
  return serializeDelivery(await em.fork().findOneOrFail(WebhookDelivery, deliveryId));
}
