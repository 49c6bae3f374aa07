import type { EntityManager } from '@mikro-orm/postgresql';
import { OutputDelivery } from '../../db/entities/OutputConnection';
import type { Config } from '../../platform/config';
import type { Temporal } from '../../platform/temporal';
import { outputRedeliveryWorkflow } from '../../workflows/outputDelivery';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';
import { webhookTaskQueue } from '../../workflows/taskQueues';
import { errors } from '../errors';
import { redeliver as redeliverLogged } from '../deliveries/deliveryLog';
import { OUTPUT_DELIVERIES } from './outputDeliveries';
import { findConnection } from './connections';
import { serializeOutputDelivery, type OutputDeliveryView } from './presenters';

/** The workflow of a redelivery round: `made` is how many attempts the delivery's log held when asked. */
export const outputRedeliveryWorkflowId = (deliveryId: string, made: number) =>
  `output-redelivery-${deliveryId}-${made}`;

/**
 * Delivers a finished output delivery again (docs/api/output-connections.md, "Redelivery"): a new round of
 * 3 attempts with the same body and id, as its own workflow (`output-redelivery-<deliveryId>-<n>`, n the
 * attempts its log held when asked; search attribute `SvcWorkspaceId`). Any finished delivery of an `http`
 * connection (a receiver that lost one asks again); of a `saved_table` connection only a failed one, as a
 * succeeded one's row is in the table already. Returns the delivery as it is once started.
 * @throws `not_found` for a connection that is not a live one of the workspace, or a delivery not of it;
 *   `conflict` when the delivery is still being delivered (or is a saved table's that succeeded);
 *   whatever the Temporal call throws, with the delivery as it was so the caller can ask again
 */
export async function redeliverOutput(
  em: EntityManager,
  deps: { temporal: Temporal; config: Config['temporal'] },
  workspaceId: string,
  connectionId: string,
  deliveryId: string,
): Promise<OutputDeliveryView> {
  const conn = await findConnection(em, workspaceId, connectionId);
  const { temporal, config } = deps;
  const claimed = await redeliverLogged(
    em,
    OUTPUT_DELIVERIES,
    { deliveryId, ownerId: conn.id, statuses: conn.type === 'http' ? ['failed', 'succeeded'] : ['failed'] },
    ({ made }) =>
      temporal.call(() =>
        temporal.client.workflow.start(outputRedeliveryWorkflow, {
          workflowId: outputRedeliveryWorkflowId(deliveryId, made),
          taskQueue: config.taskQueue,
          args: [{ deliveryId, deliveryQueue: webhookTaskQueue(config.taskQueue) }],
          typedSearchAttributes: [{ key: SvcWorkspaceId, value: workspaceId }],
        }),
      ),
  );
  if (!claimed) {
    const existing = await em.findOne(OutputDelivery, { id: deliveryId, connectionId: conn.id });
    if (!existing) throw errors.notFound('Delivery');
    throw existing.status === 'pending'
      ? errors.conflict('This delivery is being delivered now; redeliver it once it has finished', {
          status: existing.status,
        })
      : errors.conflict("A saved table connection's delivery that succeeded is in the table already", {
          status: existing.status,
        });
  }
  return serializeOutputDelivery(await em.fork().findOneOrFail(OutputDelivery, deliveryId));
}
