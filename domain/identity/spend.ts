import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Month-to-date spend per key (docs/api/billing.md#spend-caps): its charges since the first of the month
 * (UTC) plus what its unfinished runs hold now, so runs going side by side count before they are
 * charged. Reads through `em`, so inside a transaction it sees that transaction's locks and rows.
 */
export async function spentThisMonthMicros(em: EntityManager, keyIds: string[]): Promise<Map<string, number>> {
  const spent = new Map<string, number>();
  if (keyIds.length === 0) return spent;
  const charged: Array<{ api_key_id: string; micros: string }> = await em.execute(
    `select api_key_id, coalesce(-sum(amount_micros), 0) as micros from ledger_entries
     where kind = 'charge' and api_key_id in (?) and created_at >= date_trunc('month', now() at time zone 'utc') at time zone 'utc'
     group by api_key_id`,
    [keyIds],
  );
  const held: Array<{ api_key_id: string; micros: string }> = await em.execute(
    `select api_key_id, sum(held_micros) as micros from runs where api_key_id in (?) and held_micros > 0 group by api_key_id`,
    [keyIds],
  );
  for (const row of [...charged, ...held]) {
    spent.set(row.api_key_id, (spent.get(row.api_key_id) ?? 0) + Number(row.micros));
  }
  return spent;
}
