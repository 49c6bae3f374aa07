import { CancellationScope, proxyActivities, proxyLocalActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { AnnouncedRun, FirstAttempts, WebhookActivities } from './activityTypes';
import { LAST_TWO_ATTEMPTS, ONE_TRY, SIGNED_DELIVERY_ATTEMPTS, SLOT_CLAIM, UNTIL_DONE } from './retryPolicies';
import { webhookTaskQueue } from './taskQueues';

/**
 * The delivery activities, on the webhook task queue the announcer names (`deliveryQueue`); absent,
 * the workflow's own queue.
 */
function deliveryActivities(deliveryQueue?: string) {
  // 3 attempts in total, 1 s then 2 s apart, 10 s per attempt (docs/api/webhooks.md).
  const { deliverWebhook } = proxyActivities<WebhookActivities>({
    taskQueue: deliveryQueue,
    ...SIGNED_DELIVERY_ATTEMPTS,
  });
  // A workspace's deliveries in flight are bounded (docs/api/webhooks.md, "Fairness"): a busy claim fails
  // at once and is retried by Temporal, 0.5 s then up to every 5 s, without an attempt limit and without
  // holding an activity slot or growing the history while it waits.
  const { claimDeliverySlot } = proxyActivities<WebhookActivities>({
    taskQueue: deliveryQueue,
    startToCloseTimeout: '10 seconds',
    retry: SLOT_CLAIM,
  });
  const { failDelivery } = proxyActivities<WebhookActivities>({
    taskQueue: deliveryQueue,
    startToCloseTimeout: '30 seconds',
    retry: UNTIL_DONE,
  });
  // Attempts 2 and 3 of a delivery whose attempt 1 the fan-out made: 2 s apart (the 1 s before attempt 2
  // is the workflow's timer), numbered after the first.
  const { deliverWebhook: deliverLater } = proxyActivities<WebhookActivities>({
    taskQueue: deliveryQueue,
    ...SIGNED_DELIVERY_ATTEMPTS,
    retry: LAST_TWO_ATTEMPTS,
  });
  /**
   * One delivery: a workspace slot, its 3 attempts, then `failed` in the log if none succeeded.
   * `afterFirst`: attempt 1 was made (and failed) in the fan-out, so only attempts 2 and 3 are left.
   */
  return async (deliveryId: string, afterFirst = false): Promise<'succeeded' | 'failed'> => {
    try {
      if (afterFirst) {
        await sleep('1 second');
        // the slot attempt 1 took is still held; claiming it again renews it
        await claimDeliverySlot(deliveryId);
        await deliverLater(deliveryId, 1);
        return 'succeeded';
      }
      await claimDeliverySlot(deliveryId);
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
 * The fan-out with the first attempts in it, on the webhook queue: one activity records the deliveries
 * and makes every first attempt at once in the worker, instead of one activity per subscriber queueing
 * in Temporal. It heartbeats every 5 s and after attempts (at most once a second); retried without an attempt limit (our own
 * bookkeeping: giving up would lose the announcement for every subscriber), it skips the deliveries whose attempt 1 is already in the log. 10 s an attempt, at most
 * SVC_WEBHOOK_WORKSPACE_SLOTS at once, at most SVC_MAX_WEBHOOKS of them: well inside 10 minutes.
 */
function fanOutFirstAttempts(deliveryQueue: string) {
  return proxyActivities<WebhookActivities>({
    taskQueue: deliveryQueue,
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '30 seconds',
    retry: UNTIL_DONE,
  }).fanOutFirstAttempts;
}

/**
 * The same fan-out as a local activity, in the workflow task that scheduled it: no activity task through
 * Temporal's queues, and no second workflow task for its result. One try: a worker with no inline
 * fan-out to spare answers null at once, and a failure or a timeout hands the fan-out on just the same,
 * to the activity above, which sends attempt 1 only to deliveries whose log holds none. 30 s covers one
 * wave of attempts (SVC_MAX_WEBHOOKS ≤ SVC_WEBHOOK_WORKSPACE_SLOTS by default) at 10 s each.
 */
const { fanOutFirstAttemptsHere } = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: ONE_TRY,
});

/**
 * The deliveries of one announced status change: records them and makes every first attempt at once
 * (fanOutFirstAttempts; `here`: tried as a local activity first); each delivery left then goes on as its
 * own activities with their own retries, so a slow receiver delays no other's attempts. Every activity
 * runs on `deliveryQueue`.
 */
export async function deliverAnnouncement(
  run: AnnouncedRun,
  deliveryQueue: string,
  here = false,
): Promise<{ succeeded: number; failed: number }> {
  const deliver = deliveryActivities(deliveryQueue);
  let first: FirstAttempts | null = null;
  if (here) first = await fanOutFirstAttemptsHere(run).catch(() => null);
  first ??= await fanOutFirstAttempts(deliveryQueue)(run);
  const later = await Promise.all([
    ...first.retry.map((id) => deliver(id, true)),
    ...first.queued.map((id) => deliver(id)),
  ]);
  return {
    succeeded: first.succeeded + later.filter((o) => o === 'succeeded').length,
    failed: first.gone + later.filter((o) => o === 'failed').length,
  };
}

/**
 * The deliveries a run workflow makes of its own announcements (a run that is no child: runWorkflow.ts). Each
 * starts as its status write returns it and goes on while the run does: a cancel of the run stops none of
 * them (a status once announced is delivered), and only the workflow's close waits for them (`ended`).
 */
export function ownAnnouncements() {
  const pending: Array<Promise<unknown>> = [];
  return {
    /**
     * Delivers what a status write returned: its announcement, when someone listens (null otherwise, and
     * always for a child run, whose write starts a fan-out workflow itself).
     * `here`: the first attempts are tried inside the workflow task (fanOutFirstAttemptsHere), which
     * they hold until they end, so only for the announcement of the run's end: nothing the run still
     * waits for (an answer's signal) may queue behind a receiver.
     */
    deliver(announced: AnnouncedRun | null | undefined, here = false): void {
      if (!announced) return;
      const queue = webhookTaskQueue(workflowInfo().taskQueue);
      pending.push(CancellationScope.nonCancellable(() => deliverAnnouncement(announced, queue, here)));
    },
    ended: () => Promise.all(pending),
  };
}

/**
 * Turns one announced status change into its deliveries in a workflow of its own, off the run's path (the
 * run pays one workflow start at most): the announcements of child runs, whose parents wait for their close,
 * and of status changes made outside a run's workflow.
 */
export async function webhookFanoutWorkflow({
  run,
  deliveryQueue,
}: {
  run: AnnouncedRun;
  deliveryQueue: string;
}): Promise<{ succeeded: number; failed: number }> {
  return deliverAnnouncement(run, deliveryQueue);
}
