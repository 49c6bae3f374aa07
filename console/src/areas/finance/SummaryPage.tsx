import type { FinanceSummary } from '@svc/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, qs } from '../../api';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { CurrencySummary } from './CurrencySummary';
import { FinanceTabs } from './FinanceTabs';
import { useCategoryName } from './hooks';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * In and out per category and per month, one section per currency: amounts are never added across
 * currencies (no exchange rate is applied anywhere, docs/api/finance.md).
 */
export function SummaryPage() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const categoryName = useCategoryName();
  const rangeOk = (from === '' || DAY.test(from)) && (to === '' || DAY.test(to)) && (!from || !to || from <= to);
  const summary = (groupBy: 'category' | 'month') => ({
    queryKey: ['finance', 'summary', groupBy, from, to],
    queryFn: () => api<FinanceSummary>(`/v1/finance/summary${qs({ from, to, groupBy })}`),
    enabled: rangeOk,
    placeholderData: keepPreviousData,
  });
  const byCategory = useQuery(summary('category'));
  const byMonth = useQuery(summary('month'));
  return (
    <section>
      <h1>Finance</h1>
      <FinanceTabs />
      <div className="filters" role="group" aria-label="Date range">
        <div className="field">
          <label htmlFor="sum-from">From (optional)</label>
          <input
            id="sum-from"
            type="date"
            value={from}
            max={to || undefined}
            onChange={(e) => setFrom(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="sum-to">To (optional)</label>
          <input id="sum-to" type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
        </div>
      </div>
      {!rangeOk ? (
        <ErrorBox error={new Error('Choose a start date on or before the end date')} title="Date range" />
      ) : null}
      <QueryState query={byCategory} what="the summary">
        {(cat) =>
          cat.totals.length === 0 ? (
            <Empty>No transactions in this range. Import a bank export to see where the money goes.</Empty>
          ) : (
            <>
              <ErrorBox error={byMonth.error} title="Could not load the months" />
              {cat.totals.map((t) => (
                <CurrencySummary
                  key={t.currency}
                  totals={t}
                  byCategory={cat.groups
                    .filter((g) => g.currency === t.currency)
                    .map((g) => ({ ...g, label: categoryName(g.key) }))}
                  byMonth={(byMonth.data?.groups ?? [])
                    .filter((g) => g.currency === t.currency)
                    .map((g) => ({ ...g, label: g.key ?? '—' }))
                    .sort((a, b) => a.label.localeCompare(b.label))}
                />
              ))}
            </>
          )
        }
      </QueryState>
    </section>
  );
}
