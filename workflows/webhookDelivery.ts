import { proxyActivities } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks/deliver';

// CONTRACT §6 / spec §6 rule 5: 3 attempts in total, 1 s then 2 s apart, 10 s per attempt.
const { deliverWebhook } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3, initialInterval: '1 second', backoffCoefficient: 2 },
});
const { failDelivery } = proxyActivities<WebhookActivities>({
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
