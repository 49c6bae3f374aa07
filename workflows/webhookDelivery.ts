import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { AnnouncedRun } from '../activities/webhooks/dispatch';

// CONTRACT §6 / spec §6 rule 5: 3 attempts in total, 1 s then 2 s apart, 10 s per attempt.
const { deliverWebhook } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3, initialInterval: '1 second', backoffCoefficient: 2 },
});
const { failDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export interface WebhookDeliveryArgs {
  deliveryId: string;
}

/** One delivery of one event to one subscription, on its own workflow so the run never waits on it. */
export async function webhookDeliveryWorkflow({ deliveryId }: WebhookDeliveryArgs): Promise<'succeeded' | 'failed'> {
  try {
    await deliverWebhook(deliveryId);
    return 'succeeded';
  } catch {
    await failDelivery(deliveryId);
    return 'failed';
  }
}

const { fanOutWebhooks } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 20 },
});

/** Turns one announced status change into its deliveries, so the run pays one workflow start at most. */
export async function webhookFanoutWorkflow({ run }: { run: AnnouncedRun }): Promise<number> {
  return fanOutWebhooks(run);
}
