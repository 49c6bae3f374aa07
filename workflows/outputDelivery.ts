import { proxyActivities } from '@temporalio/workflow';
import type { OutputActivities, OutputDeliveryRequest } from './activityTypes';
import { SIGNED_DELIVERY_ATTEMPTS, UNTIL_DONE } from './retryPolicies';

/**
 * Delivers recorded outputs (docs/api/output-connections.md) on `deliveryQueue` (the webhook task queue;
 * absent, the workflow's own): 3 attempts in all, 1 s then 2 s apart, 10 s each, then `failed` in the log.
 * Usable inline by any workflow (a flow's `save_output` step): `await outputDeliverer(queue)(deliveryId)`.
 */
export function outputDeliverer(deliveryQueue?: string): (deliveryId: string) => Promise<'succeeded' | 'failed'> {
  const { deliverOutput } = proxyActivities<OutputActivities>({
    taskQueue: deliveryQueue,
    ...SIGNED_DELIVERY_ATTEMPTS,
  });
  const { failOutputDelivery } = proxyActivities<OutputActivities>({
    taskQueue: deliveryQueue,
    startToCloseTimeout: '30 seconds',
    retry: UNTIL_DONE,
  });
  return async (deliveryId) => {
    try {
      await deliverOutput(deliveryId);
      return 'succeeded';
    } catch {
      await failOutputDelivery(deliveryId);
      return 'failed';
    }
  };
}

/**
 * Delivers a recorded output once more, asked through the API (domain/outputs/redeliver.ts): a new round of
 * the same 3 attempts, then `failed` in the log if none went through.
 */
export async function outputRedeliveryWorkflow({
  deliveryId,
  deliveryQueue,
}: {
  deliveryId: string;
  deliveryQueue?: string;
}): Promise<'succeeded' | 'failed'> {
  return outputDeliverer(deliveryQueue)(deliveryId);
}

/**
 * Recording is our own bookkeeping: it retries until the database is back (no attempt limit), 1 s doubling
 * to every 30 s; a connection that is gone fails at once (non-retryable).
 */
function recorder(queue?: string) {
  return proxyActivities<OutputActivities>({
    taskQueue: queue,
    startToCloseTimeout: '1 minute',
    retry: UNTIL_DONE,
  });
}

export interface SaveOutputArgs extends OutputDeliveryRequest {
  deliveryQueue?: string;
}

/**
 * Saves one output to one connection: records it, then delivers it. For a flow's `save_output` step as a
 * child workflow; answers with the delivery's id and outcome.
 */
export async function saveOutputWorkflow({
  deliveryQueue,
  ...req
}: SaveOutputArgs): Promise<{ deliveryId: string; status: 'succeeded' | 'failed' }> {
  const deliveryId = await recorder(deliveryQueue).recordOutputDelivery(req);
  return { deliveryId, status: await outputDeliverer(deliveryQueue)(deliveryId) };
}

/**
 * Sends a succeeded run's output to every connection its agent version lists, each delivery with its own
 * retries, so a slow receiver delays no other; started by the run's success announcement.
 */
export async function runOutputsWorkflow({
  runId,
  deliveryQueue,
}: {
  runId: string;
  deliveryQueue?: string;
}): Promise<{ succeeded: number; failed: number }> {
  const ids = await recorder(deliveryQueue).recordRunOutputs(runId);
  const outcomes = await Promise.all(ids.map(outputDeliverer(deliveryQueue)));
  return {
    succeeded: outcomes.filter((o) => o === 'succeeded').length,
    failed: outcomes.filter((o) => o === 'failed').length,
  };
}
