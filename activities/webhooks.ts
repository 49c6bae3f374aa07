import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import { attemptDelivery, failDelivery, type DeliveryOptions } from '../domain/webhooks/delivery';
import type { WebhookActivities } from '../workflows/activityTypes';

/** ApplicationFailure types of the delivery activities. */
export const WebhookFailure = {
  /** The subscription was deleted or disabled: no further attempt (non-retryable). */
  subscriptionGone: 'webhook.subscription_gone',
  /** The receiver did not take this attempt; Temporal's retry policy makes the next one. */
  attemptFailed: 'webhook.attempt_failed',
} as const;

/** The activities of the webhook task queue: one delivery attempt, and the mark of a delivery that failed. */
export function createWebhookActivities(deps: { orm: Orm } & DeliveryOptions) {
  const { orm, ...opts } = deps;
  return {
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
  } satisfies Pick<WebhookActivities, 'deliverWebhook' | 'failDelivery'>;
}
