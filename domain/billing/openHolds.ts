import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The credit holds open now (docs/api/billing.md#holds): runs holding part of their workspace's balance, and
 * how much in micro-USD. A run's hold ends with its settlement, so a count that only grows means runs that
 * never finish. Reads the partial index of holding runs (`runs_api_key_id_held_index`).
 */
export async function openHolds(em: EntityManager): Promise<{ count: number; heldMicros: number }> {
  const [row] = await em
    .getConnection()
    .execute<Array<{ count: number; held: string | null }>>(
      `select count(*)::int as count, sum(held_micros)::text as held from runs where held_micros > 0`,
    );
  return { count: row?.count ?? 0, heldMicros: Number(row?.held ?? 0) };
}
