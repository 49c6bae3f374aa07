import type { EntityManager } from '@mikro-orm/postgresql';
import { failDelivery, sendAttempt, type DeliveryOptions } from './delivery';
import { claimDeliverySlots } from './slots';
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

interface Target {
  id: string;
  status: string;
  attempts: number;
  url: string;
  secret: string;
  body: string;
}

/** Every delivery with what its first attempt sends, in one query (the body: its event's, or its own). */
async function loadTargets(em: EntityManager, deliveryIds: string[]): Promise<Map<string, Target>> {
  const rows: Target[] = await em.getConnection().execute(
    `select d.id, d.status, jsonb_array_length(d.attempts) as attempts, s.url, s.secret,
       coalesce(d.body, e.body) as body
     from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id
       left join webhook_events e on e.id = d.event_id
     where d.id in (?)`,
    [deliveryIds],
  );
  return new Map(rows.map((r) => [r.id, { ...r, attempts: Number(r.attempts) }]));
}

/**
 * Makes the first attempt of every delivery in `deliveryIds` (one event's, of workspace `workspaceId`)
 * concurrently in this process, so the subscribers of one event do not queue behind one another in
 * Temporal (docs/api/webhooks.md, "How it runs"). Each is the attempt `deliverWebhook` makes (sendAttempt:
 * the URL checked again, signed, no redirect, 10 s, logged as attempt 1), after claiming its workspace
 * slot: at most `workspaceSlots` in flight (other fan-outs of the workspace count too), and never more
 * than `limiter` allows across the process. A delivery that finds no free slot while none of this
 * fan-out's own attempts is in flight is `queued`. A delivery whose log already holds an attempt (the
 * fan-out retried after a crash) is not attempted again as attempt 1: it is in `retry`. `progress` is
 * called after each attempt (the activity heartbeats).
 * @throws only when the database fails, once every attempt in flight is logged
 */
export async function makeFirstAttempts(
  em: EntityManager,
  workspaceId: string,
  deliveryIds: string[],
  deps: { workspaceSlots: number; limiter: Limiter; progress: () => void } & DeliveryOptions,
): Promise<FirstAttempts> {
  const { workspaceSlots, limiter, progress, ...opts } = deps;
  const outcome = new Map<string, FirstOutcome>();
  const targets = deliveryIds.length ? await loadTargets(em, deliveryIds) : new Map<string, Target>();
  let pending: string[] = [];
  for (const id of deliveryIds) {
    const t = targets.get(id);
    // Finished in an earlier try of the fan-out (or the row is gone): nothing more to send.
    if (!t || t.status !== 'pending') outcome.set(id, t?.status === 'succeeded' ? 'succeeded' : 'gone');
    else if (t.attempts > 0) outcome.set(id, 'retry');
    else pending.push(id);
  }

  const inFlight = new Set<Promise<void>>();
  const errors: unknown[] = [];
  const send = (t: Target) => {
    const p: Promise<void> = limiter
      .run(() => sendAttempt(em.fork(), { deliveryId: t.id, url: t.url, secret: t.secret, body: t.body }, 1, opts))
      .then((r) => {
        outcome.set(t.id, r.outcome === 'delivered' ? 'succeeded' : 'retry');
        progress();
      })
      .catch((err) => {
        errors.push(err);
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  try {
    while (pending.length > 0 && errors.length === 0) {
      const room = Math.max(0, workspaceSlots - inFlight.size);
      if (room > 0) {
        const { claimed, gone } = await claimDeliverySlots(
          em.fork(),
          workspaceId,
          pending.slice(0, room),
          workspaceSlots,
        );
        const taken = new Set([...claimed, ...gone]);
        pending = pending.filter((id) => !taken.has(id));
        for (const id of gone) {
          await failDelivery(em.fork(), id);
          outcome.set(id, 'gone');
        }
        for (const id of claimed) send(targets.get(id)!);
        if (claimed.length === 0 && inFlight.size === 0 && gone.length === 0) {
          // every slot is held by other deliveries of the workspace: these wait their turn as activities
          for (const id of pending) outcome.set(id, 'queued');
          pending = [];
        }
        if (claimed.length > 0 || gone.length > 0) continue;
      }
      if (inFlight.size > 0) await Promise.race(inFlight);
    }
  } finally {
    // a database failure fails the activity only once every attempt in flight is logged, so its retry
    // finds them in the log instead of sending them again as attempt 1
    await Promise.all(inFlight);
  }
  if (errors.length > 0) throw errors[0];
  const ids = (o: FirstOutcome) => deliveryIds.filter((id) => outcome.get(id) === o);
  return {
    succeeded: ids('succeeded').length,
    gone: ids('gone').length,
    retry: ids('retry'),
    queued: ids('queued'),
  };
}
