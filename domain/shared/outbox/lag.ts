import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * How far the relay is behind (docs/operations.md#metrics): the rows whose call is not made yet and the age
 * in seconds of the oldest of them (0 when there is none). Reads the pending index only.
 */
export async function outboxBacklog(em: EntityManager): Promise<{ pending: number; lagSeconds: number }> {
  const [row] = await em.getConnection().execute<Array<{ pending: number; lag: number | null }>>(
    `select count(*)::int as pending, extract(epoch from now() - min(created_at))::float8 as lag
         from outbox where done_at is null`,
  );
  return { pending: row?.pending ?? 0, lagSeconds: Math.max(0, row?.lag ?? 0) };
}
