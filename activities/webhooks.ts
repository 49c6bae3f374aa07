import { ApplicationFailure, Context } from '@temporalio/activity';
import { ApplicationFailureCategory } from '@temporalio/common';
import type { Orm } from '../db/orm';
import { attemptDelivery, failDelivery, type DeliveryOptions } from '../domain/webhooks/delivery';
import { recordRunTargets, type DeliveryTarget } from '../domain/webhooks/dispatch';
import { Limiter, makeFirstAttempts, type FirstAttempts } from '../domain/webhooks/firstAttempts';
import { CheckedConnections } from '../platform/net/safeHttp';
import { claimDeliverySlot } from '../domain/webhooks/slots';
import type { AnnouncedRun, WebhookActivities } from '../workflows/activityTypes';

/** The fan-out's heartbeats as its attempts end, at most this often (its heartbeat timeout is 30 s). */
const HEARTBEAT_EVERY_MS = 1_000;

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
 * The activities of the webhook task queue: the fan-out with every first attempt, a workspace delivery
 * slot, one delivery attempt, and the mark of a delivery that failed; and the fan-out as the runs
 * worker's local activity (`fanOutFirstAttemptsHere`), sharing the process's limit and connections.
 * `workspaceSlots`: SVC_WEBHOOK_WORKSPACE_SLOTS; `concurrency`: SVC_WEBHOOK_CONCURRENCY, which also bounds
 * the first attempts the fan-outs of this process make at once; `inlineFanOuts`:
 * SVC_WEBHOOK_INLINE_FANOUTS.
 */
export function createWebhookActivities(
  deps: { orm: Orm; workspaceSlots: number; concurrency: number; inlineFanOuts: number } & DeliveryOptions,
) {
  const { orm, workspaceSlots, concurrency, inlineFanOuts, ...guard } = deps;
  const firstAttempts = new Limiter(Math.max(1, concurrency));
  // Every attempt of this process reuses idle connections to its receivers (a fan-out's to one, and the
  // next fan-out's), each request still checked on its own; an idle one closes after 2 s.
  const opts: DeliveryOptions = { ...guard, connections: new CheckedConnections({ idleMs: 2_000 }) };
  /**
   * Records the deliveries of `run`'s announcement, taking the workspace's free slots for the new ones as
   * it does; only those still pending (an earlier try's count in no outcome).
   */
  const pendingTargets = async (run: AnnouncedRun) =>
    (await recordRunTargets(orm.em.fork(), run, { claimSlots: workspaceSlots })).filter((t) => t.status === 'pending');
  const attempt = (run: AnnouncedRun, targets: DeliveryTarget[], progress: () => void): Promise<FirstAttempts> =>
    makeFirstAttempts(orm.em.fork(), run.workspaceId, targets, {
      ...opts,
      workspaceSlots,
      limiter: firstAttempts,
      progress,
    });
  let inlineInUse = 0;
  return {
    async fanOutFirstAttemptsHere(run: AnnouncedRun): Promise<FirstAttempts | null> {
      // Past the limit the fan-out goes to the webhook queue's own slots: receivers that hang then hold
      // no more of the runs worker's local-activity slots than this.
      if (inlineInUse >= inlineFanOuts) return null;
      inlineInUse++;
      try {
        const targets = await pendingTargets(run);
        // More deliveries than the workspace's slots (SVC_MAX_WEBHOOKS set above them) go in waves, which
        // behind receivers that hang could outlast the local activity's 30 s: the webhook queue takes them.
        if (targets.length > workspaceSlots) return null;
        return await attempt(run, targets, () => undefined);
      } finally {
        inlineInUse--;
      }
    },

    async fanOutFirstAttempts(run: AnnouncedRun): Promise<FirstAttempts> {
      const ctx = Context.current();
      // Alive while attempts hang or wait for the process's limit, not only as each one ends.
      const beat = setInterval(() => ctx.heartbeat(), 5_000);
      // After an attempt, at most once a second: a heartbeat costs the worker about as much CPU as an
      // attempt (the SDK's heartbeat pipeline), and 30 s is the timeout it guards against.
      let beatAt = 0;
      const progress = () => {
        if (Date.now() - beatAt < HEARTBEAT_EVERY_MS) return;
        beatAt = Date.now();
        ctx.heartbeat();
      };
      try {
        return await attempt(run, await pendingTargets(run), progress);
      } finally {
        clearInterval(beat);
      }
    },

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

    async deliverWebhook(deliveryId: string, priorAttempts = 0): Promise<void> {
      const attempt = priorAttempts + Context.current().info.attempt;
      const result = await attemptDelivery(orm.em.fork(), deliveryId, attempt, opts);
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
  } satisfies Pick<
    WebhookActivities,
    'fanOutFirstAttempts' | 'fanOutFirstAttemptsHere' | 'claimDeliverySlot' | 'deliverWebhook' | 'failDelivery'
  >;
}
