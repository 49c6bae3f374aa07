import type { EntityManager } from '@mikro-orm/postgresql';
import { attemptDelivery, failDelivery, type DeliveryOptions } from './delivery';
import { claimDeliverySlot } from './slots';
import type { FirstAttempts } from '../../workflows/activityTypes';

export type { FirstAttempts };


/** A counting semaphore: at most `size` holders at once, the others wait in order. */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      // the slot passes straight to the next waiter, if any
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

type FirstOutcome = 'succeeded' | 'gone' | 'retry' | 'queued';

/**
 * The first attempt of one recorded delivery, as `deliverWebhook` would make it (attemptDelivery with
 * attempt 1: the URL checked again, signed, no redirect, 10 s, logged). A delivery whose log already
 * holds an attempt (the fan-out retried after a crash) is not attempted again as attempt 1.
 */
async function firstAttempt(
  em: EntityManager,
  deliveryId: string,
  workspaceSlots: number,
  opts: DeliveryOptions,
): Promise<FirstOutcome> {
  const [row]: Array<{ status: string; attempts: number }> = await em
    .getConnection()
    .execute(`select status, jsonb_array_length(attempts) as attempts from webhook_deliveries where id = ?`, [
      deliveryId,
    ]);
  // Finished in an earlier try of the fan-out (or the row is gone): nothing more to send.
  if (!row || row.status !== 'pending') return row?.status === 'succeeded' ? 'succeeded' : 'gone';
  if (Number(row.attempts) > 0) return 'retry';
  if (!(await claimDeliverySlot(em.fork(), deliveryId, workspaceSlots))) return 'queued';
  const result = await attemptDelivery(em.fork(), deliveryId, 1, opts);
  if (result.outcome === 'delivered') return 'succeeded';
  if (result.outcome === 'subscription_gone') {
    await failDelivery(em.fork(), deliveryId);
    return 'gone';
  }
  return 'retry';
}

/**
 * Makes the first attempt of every delivery in `deliveryIds` concurrently in this process, so the
 * subscribers of one event do not queue behind one another in Temporal (docs/api/webhooks.md,
 * "Delivery"). At most `workspaceSlots` of them at once (and a delivery still claims its workspace slot,
 * so other fan-outs of the workspace count too), and never more than `limiter` allows across the process.
 * `progress` is called after each one (the activity heartbeats).
 * @throws only when the database fails; a retry skips the deliveries already attempted
 */
export async function makeFirstAttempts(
  em: EntityManager,
  deliveryIds: string[],
  deps: { workspaceSlots: number; limiter: Limiter; progress: () => void } & DeliveryOptions,
): Promise<FirstAttempts> {
  const { workspaceSlots, limiter, progress, ...opts } = deps;
  const mine = new Limiter(Math.max(1, workspaceSlots));
  // allSettled: a database failure fails the activity only once every attempt in flight is logged, so its
  // retry finds them in the log instead of sending them again as attempt 1.
  const settled = await Promise.allSettled(
    deliveryIds.map((id) =>
      mine.run(() =>
        limiter.run(async () => {
          const outcome = await firstAttempt(em.fork(), id, workspaceSlots, opts);
          progress();
          return { id, outcome };
        }),
      ),
    ),
  );
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  const outcomes = settled.map((s) => (s as PromiseFulfilledResult<{ id: string; outcome: FirstOutcome }>).value);
  return {
    succeeded: outcomes.filter((o) => o.outcome === 'succeeded').length,
    gone: outcomes.filter((o) => o.outcome === 'gone').length,
    retry: outcomes.filter((o) => o.outcome === 'retry').map((o) => o.id),
    queued: outcomes.filter((o) => o.outcome === 'queued').map((o) => o.id),
  };
}
