import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Month-to-date spend per key: the sum of its charges since the first of the month (UTC). Reads through
 * `em`, so inside a transaction it sees that transaction's locks and rows.
 */
export async function spentThisMonthMicros(em: EntityManager, keyIds: string[]): Promise<Map<string, number>> {
  const spent = new Map<string, number>();
  if (keyIds.length === 0) return spent;
  const rows: Array<{ api_key_id: string; spent: string }> = await em.execute(
    `select api_key_id, coalesce(-sum(amount_micros), 0) as spent from ledger_entries
     where kind = 'charge' and api_key_id in (?) and created_at >= date_trunc('month', now() at time zone 'utc') at time zone 'utc'
     group by api_key_id`,
    [keyIds],
  );
  for (const row of rows) spent.set(row.api_key_id, Number(row.spent));
  return spent;
}
