import type { EntityManager } from '@mikro-orm/postgresql';
import { AttemptLog } from './attemptLog';
import { postAttempt, type DeliveryOptions } from './delivery';
import { claimDeliverySlots } from './slots';
import type { FirstAttempts } from '../../workflows/activityTypes';
import { LIVE, type DeliveryTarget } from './dispatch';
import { startPaced } from './startPacing';

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

/**
 * How often the log of the first attempts is written while attempts are in flight. Only the log waits
 * (a slot passes to the next delivery at once); a held slot outlives this by far (slots.ts).
 */
const FLUSH_EVERY_MS = 20;

type FirstOutcome = 'succeeded' | 'gone' | 'retry' | 'queued';

type Target = DeliveryTarget;

/** Every delivery with what its first attempt sends, in one query (the body: its event's, or its own). */
async function loadTargets(em: EntityManager, deliveryIds: string[]): Promise<Map<string, Target>> {
  const rows: Target[] = await em.getConnection().execute(
    `select d.id, d.status, ${LIVE} as live,
       jsonb_array_length(d.attempts) as attempts, s.id as "subscriptionId", s.url, s.secret, coalesce(d.body, e.body) as body, false as claimed
     from webhook_deliveries d left join webhook_subscriptions s on s.id = d.subscription_id
       left join webhook_events e on e.id = d.event_id
     where d.id in (?)`,
    [deliveryIds],
  );
  return new Map(rows.map((r) => [r.id, { ...r, attempts: Number(r.attempts) }]));
}

/**
 * Makes the first attempt of every delivery in `deliveries` (one event's, of workspace `workspaceId`:
 * their ids, read here, or as recordRunTargets returned them, which spares the read)
 * concurrently in this process, so the subscribers of one event do not queue behind one another in
 * Temporal (docs/api/webhooks.md, "How it runs"). Each is the attempt `deliverWebhook` makes (the URL
 * checked again, signed, no redirect, 10 s, logged as attempt 1), under one of its workspace's slots:
 * at most `workspaceSlots` in flight (other fan-outs of the workspace count too), and never more than
 * `limiter` allows across the process. They send over `connections`, the process's keep-alive
 * connections to checked addresses (safeHttp.ts), when given.
 *
 * The slots work as a pool: the fan-out claims as many as it can use in one transaction (targets
 * recorded with their slots, `claimed`, need none: recordRunTargets took them in its own); a delivery
 * that succeeds passes its slot straight to the next one waiting, without a statement in between (the
 * workspace's count of held slots stays the same), and its log entry and the hand-over are written
 * together with the other attempts that ended meanwhile, one statement per batch (attemptLog.ts). A
 * delivery whose attempt 1 failed keeps its slot for attempts 2 and 3 (`retry`); the fan-out then
 * claims again, once per batch written, while deliveries wait and it holds fewer than `workspaceSlots`.
 * Deliveries that find no free slot while none of this fan-out's attempts is in flight are `queued`. A
 * delivery whose log already holds an attempt (the fan-out retried after a crash) is not attempted again
 * as attempt 1: it is in `retry`. `progress` is called after each attempt (the activity heartbeats).
 * @throws only when the database fails, once every attempt in flight has ended (and is logged, unless
 *   the database is still down)
 */
export async function makeFirstAttempts(
  em: EntityManager,
  workspaceId: string,
  deliveries: string[] | DeliveryTarget[],
  deps: { workspaceSlots: number; limiter: Limiter; progress: () => void } & DeliveryOptions,
): Promise<FirstAttempts> {
  const { workspaceSlots, limiter, progress, ...opts } = deps;
  const outcome = new Map<string, FirstOutcome>();
  let wake = () => undefined as void;
  const log = new AttemptLog(() => wake());
  const loaded = deliveries.filter((d): d is DeliveryTarget => typeof d !== 'string');
  const deliveryIds = deliveries.map((d) => (typeof d === 'string' ? d : d.id));
  const targets =
    loaded.length === deliveries.length ? new Map(loaded.map((t) => [t.id, t])) : await loadTargets(em, deliveryIds);
  const pending: string[] = [];
  // Slots taken as they were recorded (recordRunTargets' claimSlots): attempted at once, no claim of their own.
  const preclaimed: string[] = [];
  for (const id of deliveryIds) {
    const t = targets.get(id);
    // Finished in an earlier try of the fan-out (or the row is gone): nothing more to send.
    if (!t || t.status !== 'pending') outcome.set(id, t?.status === 'succeeded' ? 'succeeded' : 'gone');
    else if (t.attempts > 0) outcome.set(id, 'retry');
    else if (!t.live) {
      outcome.set(id, 'gone');
      log.add(id, 'gone');
    } else (t.claimed ? preclaimed : pending).push(id);
  }

  const errors: unknown[] = [];
  const holders = new Set<Promise<void>>();
  /** One held slot: attempts deliveries one after another while they succeed and others wait. */
  const hold = (first: Target) => {
    const p = (async () => {
      for (let t: Target | undefined = first; t;) {
        const target = {
          deliveryId: t.id,
          subscriptionId: t.subscriptionId,
          url: t.url,
          secret: t.secret,
          body: t.body,
        };
        const result = await limiter.run(() => postAttempt(target, 1, opts));
        outcome.set(t.id, result.error ? 'retry' : 'succeeded');
        log.add(t.id, result.error ? 'attempted' : 'succeeded', result);
        progress();
        // a failed attempt 1 keeps the slot for its attempts 2 and 3
        if (result.error || errors.length > 0) return;
        const next = pending.shift();
        t = next === undefined ? undefined : targets.get(next);
        if (t) log.add(t.id, 'holds');
      }
    })().finally(() => {
      holders.delete(p);
      wake();
    });
    holders.add(p);
  };
  // started a few at a time (startPacing.ts), so the first requests are on the wire while the rest are built
  const holdAll = (ids: string[]) =>
    startPaced(
      ids,
      (id) => hold(targets.get(id)!),
      () => !!opts.connections?.connecting,
    );
  const claim = async () => {
    // out of `pending` while the claim runs, so a slot passed on meanwhile cannot take one of them too
    const ask = pending.splice(0, Math.max(0, workspaceSlots - holders.size));
    const { claimed, gone } = await claimDeliverySlots(em.fork(), workspaceId, ask, workspaceSlots);
    const taken = new Set([...claimed, ...gone]);
    pending.unshift(...ask.filter((id) => !taken.has(id)));
    for (const id of gone) {
      outcome.set(id, 'gone');
      log.add(id, 'gone');
    }
    await holdAll(claimed);
  };

  try {
    await holdAll(preclaimed);
    // claim when deliveries wait and slots may have freed: at the start, then after each batch written
    let claimDue = true;
    // From the start, not from 0: a fan-out whose attempts all answer within FLUSH_EVERY_MS writes its
    // log once, after the last, instead of once for the first answer and again for the rest.
    let flushedAt = Date.now();
    while (errors.length === 0) {
      if (log.size > 0) {
        // while attempts go on, the log is written at most every FLUSH_EVERY_MS: more entries a statement
        const early = FLUSH_EVERY_MS - (Date.now() - flushedAt);
        if (holders.size > 0 && early > 0) {
          let timer: NodeJS.Timeout | undefined;
          await new Promise<void>((resolve) => {
            // until then only the last attempt's end matters, not each entry (a timer apiece for a hundred)
            wake = () => {
              if (holders.size === 0) resolve();
            };
            timer = setTimeout(resolve, early);
          });
          clearTimeout(timer);
          continue;
        }
        await log.flush(em);
        flushedAt = Date.now();
        claimDue = true;
        continue;
      }
      if (claimDue && pending.length > 0 && holders.size < workspaceSlots) {
        claimDue = false;
        await claim();
        // every slot is held by other deliveries of the workspace: these wait their turn as activities
        if (holders.size === 0 && log.size === 0) {
          for (const id of pending) outcome.set(id, 'queued');
          pending.length = 0;
        }
        continue;
      }
      if (holders.size === 0 && pending.length === 0) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } catch (err) {
    errors.push(err);
  } finally {
    // a database failure fails the activity only once every attempt in flight has ended and is logged
    // if the database allows, so its retry finds them in the log instead of sending them again as attempt 1
    await Promise.all(holders);
    if (errors.length > 0) await log.flush(em).catch(() => undefined);
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
