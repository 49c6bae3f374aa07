import type { EntityManager } from '@mikro-orm/postgresql';
import type { Identity } from '../identity/identity';
import { presentMoney } from './money';

export interface SummaryGroup {
  /** The category id (null: uncategorised) or the month `YYYY-MM`. */
  key: string | null;
  currency: string;
  /** Exact decimal text in `currency`, like a transaction's `amount`. */
  in: string;
  out: string;
  net: string;
  count: number;
}

export interface Summary {
  groupBy: 'category' | 'month';
  from: string | null;
  to: string | null;
  groups: SummaryGroup[];
  totals: Omit<SummaryGroup, 'key'>[];
}

interface SumRow {
  key: string | null;
  currency: string;
  in_micros: string;
  out_micros: string;
  net_micros: string;
  count: string;
}

/**
 * Money in, out and net per category or month, per currency (amounts of different currencies are never
 * added together). The sums are PostgreSQL's over the integer micro-units, exact however many rows; the
 * micro-unit totals become exact decimal text only at the end (docs/api/finance.md).
 */
export async function financeSummary(
  em: EntityManager,
  identity: Identity,
  query: { from?: string; to?: string; groupBy: 'category' | 'month' },
): Promise<Summary> {
  const key = query.groupBy === 'month' ? `to_char(date, 'YYYY-MM')` : 'category_id::text';
  const params: unknown[] = [identity.workspaceId];
  let range = '';
  if (query.from) {
    range += ' and date >= ?';
    params.push(query.from);
  }
  if (query.to) {
    range += ' and date <= ?';
    params.push(query.to);
  }
  const sums = (groupKey: string | null) =>
    em.getConnection().execute<SumRow[]>(
      `select ${groupKey ?? 'null'} as key, currency,
         coalesce(sum(amount_micros) filter (where amount_micros > 0), 0)::text as in_micros,
         coalesce(-sum(amount_micros) filter (where amount_micros < 0), 0)::text as out_micros,
         sum(amount_micros)::text as net_micros, count(*)::text as count
       from finance_transactions where workspace_id = ?${range}
       group by ${groupKey ? `${groupKey}, ` : ''}currency
       order by ${groupKey ? 'key nulls last, ' : ''}currency`,
      params,
    );
  const view = (r: SumRow) => ({
    currency: r.currency,
    in: presentMoney(r.in_micros, r.currency).amount,
    out: presentMoney(r.out_micros, r.currency).amount,
    net: presentMoney(r.net_micros, r.currency).amount,
    count: Number(r.count),
  });
  const [groups, totals] = await Promise.all([sums(key), sums(null)]);
  return {
    groupBy: query.groupBy,
    from: query.from ?? null,
    to: query.to ?? null,
    groups: groups.map((r) => ({ key: r.key, ...view(r) })),
    totals: totals.map(view),
  };
}
