import { patched, proxyActivities } from '@temporalio/workflow';
import type { AnnouncedRun, WebhookActivities } from './activityTypes';

/**
 * The delivery activities, on the webhook task queue the announcer names (`deliveryQueue`); absent,
 * the workflow's own queue.
 */
function deliveryActivities(deliveryQueue?: string) {
  // 3 attempts in total, 1 s then 2 s apart, 10 s per attempt (docs/api/webhooks.md).
  const { deliverWebhook } = proxyActivities<WebhookActivities>({
    taskQueue: deliveryQueue,
    startToCloseTimeout: '10 seconds',
    retry: { maximumAttempts: 3, initialInterval: '1 second', backoffCoefficient: 2 },
  });
  // A workspace's deliveries in flight are bounded (docs/api/webhooks.md, "Fairness"): a busy claim fails
  // at once and is retried by Temporal, 0.5 s then up to every 5 s, without an attempt limit and without
  // holding an activity slot or growing the history while it waits.
  const { claimDeliverySlot } = proxyActivities<WebhookActivities>({
    taskQueue: deliveryQueue,
    startToCloseTimeout: '10 seconds',
    retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds' },
  });
  const { failDelivery } = proxyActivities<WebhookActivities>({
    taskQueue: deliveryQueue,
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
  });
  /** One delivery: a workspace slot, its 3 attempts, then `failed` in the log if none succeeded. */
  return async (deliveryId: string): Promise<'succeeded' | 'failed'> => {
    try {
      // Deliveries started before the slots existed go straight to their attempts.
      if (patched('webhook-workspace-slots')) await claimDeliverySlot(deliveryId);
      await deliverWebhook(deliveryId);
      return 'succeeded';
    } catch {
      await failDelivery(deliveryId);
      return 'failed';
    }
  };
}

export interface WebhookDeliveryArgs {
  deliveryId: string;
  deliveryQueue?: string;
}

/** One delivery of one event to one subscription: a redelivery (`POST …/redeliver`). */
export async function webhookDeliveryWorkflow({
  deliveryId,
  deliveryQueue,
}: WebhookDeliveryArgs): Promise<'succeeded' | 'failed'> {
  return deliveryActivities(deliveryQueue)(deliveryId);
}

/**
 * Recording the deliveries is our own bookkeeping, not a receiver's attempt: it retries until the
 * database is back, however long that takes (no attempt limit), 1 s, 2 s, 4 s … then every 30 s.
 * Giving up would lose the announcement for every subscriber.
 */
const { fanOutWebhooks } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    maximumAttempts: Infinity,
  },
});

/**
 * Turns one announced status change into its deliveries, off the run's path (the run pays one
 * workflow start at most): records them, then delivers to every subscriber at once, each delivery
 * its own activity with its own retries, so a slow receiver delays no other.
 */
export async function webhookFanoutWorkflow({
  run,
  deliveryQueue,
}: {
  run: AnnouncedRun;
  deliveryQueue?: string;
}): Promise<{ succeeded: number; failed: number }> {
  const deliver = deliveryActivities(deliveryQueue);
  const outcomes = await Promise.all((await fanOutWebhooks(run)).map(deliver));
  return {
    succeeded: outcomes.filter((o) => o === 'succeeded').length,
    failed: outcomes.filter((o) => o === 'failed').length,
  };
}
