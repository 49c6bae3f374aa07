import { ApplicationFailure, Context } from '@temporalio/activity';
import { ApplicationFailureCategory } from '@temporalio/common';
import type { Orm } from '../db/orm';
import { attemptDelivery, failDelivery, type DeliveryOptions } from '../domain/webhooks/delivery';
import { claimDeliverySlot } from '../domain/webhooks/slots';
import type { WebhookActivities } from '../workflows/activityTypes';

/** ApplicationFailure types of the delivery activities. */
export const WebhookFailure = {
  /** The subscription was deleted or disabled: no further attempt (non-retryable). */
  subscriptionGone: 'webhook.subscription_gone',
  /** The receiver did not take this attempt; Temporal's retry policy makes the next one. */
  attemptFailed: 'webhook.attempt_failed',
  /** Every delivery slot of the workspace is taken; Temporal's retry policy asks again. */
  slotsBusy: 'webhook.slots_busy',
} as const;

/**
 * The activities of the webhook task queue: a workspace delivery slot, one delivery attempt, and the
 * mark of a delivery that failed. `workspaceSlots`: SVC_WEBHOOK_WORKSPACE_SLOTS.
 */
export function createWebhookActivities(deps: { orm: Orm; workspaceSlots: number } & DeliveryOptions) {
  const { orm, workspaceSlots, ...opts } = deps;
  return {
    async claimDeliverySlot(deliveryId: string): Promise<void> {
      // Busy: fail at once, handing the activity slot back; the retry (no history event) asks again.
      // Benign: waiting its turn is expected, so the worker logs it at debug level only.
      if (!(await claimDeliverySlot(orm.em.fork(), deliveryId, workspaceSlots))) {
        throw ApplicationFailure.create({
          type: WebhookFailure.slotsBusy,
          message: 'every delivery slot of the workspace is taken',
          category: ApplicationFailureCategory.BENIGN,
        });
      }
    },

    async deliverWebhook(deliveryId: string): Promise<void> {
      const result = await attemptDelivery(orm.em.fork(), deliveryId, Context.current().info.attempt, opts);
      if (result.outcome === 'subscription_gone') {
        throw ApplicationFailure.create({
          type: WebhookFailure.subscriptionGone,
          message: 'subscription deleted or disabled',
          nonRetryable: true,
        });
      }
      if (result.outcome === 'attempt_failed') {
        throw ApplicationFailure.create({ type: WebhookFailure.attemptFailed, message: result.error });
      }
    },

    async failDelivery(deliveryId: string): Promise<void> {
      await failDelivery(orm.em.fork(), deliveryId);
    },
  } satisfies Pick<WebhookActivities, 'claimDeliverySlot' | 'deliverWebhook' | 'failDelivery'>;
}
