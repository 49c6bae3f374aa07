import type { EntityManager } from '@mikro-orm/postgresql';
import type { SignedPostResult } from './signedPost';

/**
 * Where one kind of signed delivery keeps its log: a table with `id`, `status` (`pending` | `succeeded` |
 * `failed`), `attempts` (jsonb array of `{ at, statusCode, error }`) and `updated_at`. Webhook deliveries and
 * save-output deliveries each name theirs (docs/api/webhooks.md, docs/api/output-connections.md).
 */
export interface DeliveryLog {
  table: 'webhook_deliveries' | 'output_deliveries';
  /** The column naming what a delivery goes to (its subscription or its connection). */
  ownerColumn: 'subscription_id' | 'connection_id';
  /** Also set when a delivery finishes, e.g. `slot_until = null` to give a workspace slot back. */
  onFinish?: 'slot_until = null';
  /** Counts redelivery rounds in a `round` column (0 for the first delivery). */
  countsRounds?: boolean;
  /** The `User-Agent` its attempts send. */
  userAgent: string;
}

const finish = (log: DeliveryLog) => (log.onFinish ? `, ${log.onFinish}` : '');

/**
 * Appends one attempt to a delivery's log; with `status` the delivery is finished at once.
 * @throws only when the database fails
 */
export async function recordAttempt(
  em: EntityManager,
  log: DeliveryLog,
  deliveryId: string,
  attempt: SignedPostResult,
  status?: 'succeeded' | 'failed',
): Promise<void> {
  const entry = JSON.stringify([attempt]);
  // Through the EntityManager, so that inside a transaction (a saved table's append) it is part of it.
  await em.execute(
    `update ${log.table} set attempts = attempts || ?::jsonb, updated_at = now()${status ? `, status = ?${finish(log)}` : ''} where id = ?`,
    status ? [entry, status, deliveryId] : [entry, deliveryId],
  );
}

/**
 * Marks a delivery whose attempts are used up (or whose receiver is gone) as failed; a no-op for one no
 * longer pending, which is finished all the same (its slot, if any, given back).
 * @throws only when the database fails
 */
export async function failDelivery(em: EntityManager, log: DeliveryLog, deliveryId: string): Promise<void> {
  await em.getConnection().execute(
    `update ${log.table} set status = case when status = 'pending' then 'failed' else status end${finish(log)},
       updated_at = now() where id = ?`,
    [deliveryId],
  );
}

/** A finished delivery claimed for another round: what it was, and how far its log had come. */
export interface RedeliveryClaim {
  previous: 'failed' | 'succeeded';
  /** Attempts in its log when claimed. */
  made: number;
  /** Its new round (with `countsRounds`), else 0. */
  round: number;
}

/**
 * Claims a finished delivery of `ownerId` (its status one of `statuses`) back to `pending` for a new round of
 * attempts, in one statement, so of two concurrent redeliveries one starts; then `start`s the round. When
 * `start` rejects, the delivery is put back as it was (the caller may ask again) and the rejection passes on.
 * Returns null when no delivery of `ownerId` with one of `statuses` has that id (the caller tells why).
 * @throws whatever `start` or the database throws
 */
export async function redeliver(
  em: EntityManager,
  log: DeliveryLog,
  target: { deliveryId: string; ownerId: string; statuses: ReadonlyArray<'failed' | 'succeeded'> },
  start: (claim: RedeliveryClaim) => Promise<unknown>,
): Promise<RedeliveryClaim | null> {
  const [claim]: RedeliveryClaim[] = await em.getConnection().execute(
    `update ${log.table} d set status = 'pending', updated_at = now()${log.countsRounds ? ', round = d.round + 1' : ''}
     from (select id, status as previous, jsonb_array_length(attempts) as made from ${log.table}
           where id = ? and ${log.ownerColumn} = ? and status in (?) for update) o
     where d.id = o.id returning o.previous, o.made, ${log.countsRounds ? 'd.round' : '0'} as round`,
    [target.deliveryId, target.ownerId, [...target.statuses]],
  );
  if (!claim) return null;
  await start(claim).catch(async (err) => {
    await em
      .getConnection()
      .execute(`update ${log.table} set status = ? where id = ?`, [claim.previous, target.deliveryId]);
    throw err;
  });
  return claim;
}
