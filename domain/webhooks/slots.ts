import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * How long a slot stays held without being renewed: one attempt (10 s) and the backoff before the next
 * (at most 2 s), with room for the next attempt's dispatch. Every attempt renews it, so a delivery
 * keeps its slot through its 3 attempts; one whose worker died gives it back after this long.
 */
export const SLOT_HOLD_SECONDS = 20;

/**
 * Takes the lock under which claims of one workspace's slots take turns (until the transaction ends), so
 * two cannot both take its last free slot: a claim's count of held slots comes after it.
 */
export async function lockDeliverySlots(tx: EntityManager, workspaceId: string): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`webhook-slots:${workspaceId}`]);
}

/**
 * Claims one of the workspace's delivery slots for a delivery (docs/api/webhooks.md, "Fairness"): at
 * most `limit` deliveries of one workspace are in flight at once, counted in PostgreSQL so the bound
 * holds across every worker process. Returns false at once when all are taken: the caller gives its
 * activity slot back and asks again later, so waiting deliveries of one workspace never hold the
 * worker's activity slots that other workspaces' deliveries need. Claiming again a slot the delivery
 * already holds renews it (a retried claim after a crash).
 * @throws only when the database fails
 */
export async function claimDeliverySlot(em: EntityManager, deliveryId: string, limit: number): Promise<boolean> {
  return em.transactional(async (tx) => {
    const [delivery]: Array<{ workspace_id: string; held: boolean | null; live: boolean }> = await tx.execute(
      `select d.workspace_id, d.slot_until > now() as held,
         d.status = 'pending' and s.deleted_at is null and s.status = 'active' as live
       from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id where d.id = ?`,
      [deliveryId],
    );
    // Unknown, done, or its subscription gone: nothing to wait for; the attempt itself reports it.
    if (!delivery?.live) return true;
    if (!delivery.held) {
      await lockDeliverySlots(tx, delivery.workspace_id);
      const [{ count }]: Array<{ count: string }> = await tx.execute(
        `select count(*) from webhook_deliveries where workspace_id = ? and slot_until > now() and id <> ?`,
        [delivery.workspace_id, deliveryId],
      );
      if (Number(count) >= limit) return false;
    }
    await tx.execute(`update webhook_deliveries set slot_until = now() + make_interval(secs => ?) where id = ?`, [
      SLOT_HOLD_SECONDS,
      deliveryId,
    ]);
    return true;
  });
}

/** Keeps a held slot for one more attempt; a no-op for a delivery that holds none. */
export async function renewDeliverySlot(em: EntityManager, deliveryId: string): Promise<void> {
  await em
    .getConnection()
    .execute(
      `update webhook_deliveries set slot_until = now() + make_interval(secs => ?) where id = ? and slot_until is not null`,
      [SLOT_HOLD_SECONDS, deliveryId],
    );
}

/**
 * claimDeliverySlot for many pending deliveries of one workspace in one transaction (the fan-out's first
 * attempts): takes as many of the free slots as there are candidates, in order, and says which it got.
 * Deliveries no longer pending or whose subscription is gone are in `gone` (nothing to send); the rest
 * that found no free slot are in neither list. Three statements whatever the count: the workspace's lock,
 * then one that checks, counts and claims (it runs after the lock, so it counts what the claims before
 * it committed).
 * @throws only when the database fails
 */
export async function claimDeliverySlots(
  em: EntityManager,
  workspaceId: string,
  deliveryIds: string[],
  limit: number,
): Promise<{ claimed: string[]; gone: string[] }> {
  if (deliveryIds.length === 0) return { claimed: [], gone: [] };
  return em.transactional(async (tx) => {
    await lockDeliverySlots(tx, workspaceId);
    const rows: Array<{ id: string; live: boolean; claimed: boolean }> = await tx.execute(
      `with candidate as (
         select d.id, c.ord, d.status = 'pending' and s.deleted_at is null and s.status = 'active' as live
         from unnest(array[?]::uuid[]) with ordinality as c(id, ord)
           join webhook_deliveries d on d.id = c.id join webhook_subscriptions s on s.id = d.subscription_id),
       held as (
         select count(*) as n from webhook_deliveries
         where workspace_id = ? and slot_until > now() and id <> all(array[?]::uuid[])),
       picked as (
         select id from candidate where live order by ord limit greatest(0, ? - (select n from held))),
       taken as (
         update webhook_deliveries d set slot_until = now() + make_interval(secs => ?)
         from picked where d.id = picked.id returning d.id)
       select c.id, c.live, t.id is not null as claimed from candidate c left join taken t on t.id = c.id`,
      [deliveryIds, workspaceId, deliveryIds, limit, SLOT_HOLD_SECONDS],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      claimed: deliveryIds.filter((id) => byId.get(id)?.claimed),
      gone: deliveryIds.filter((id) => !byId.get(id)?.live),
    };
  });
}
