import type { FinanceTransaction } from '@svc/client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, qs } from '../../api';
import { Empty, QueryState } from '../../components/States';
import { useSession } from '../../session';
import { FinanceTabs } from './FinanceTabs';
import { useCategories } from './hooks';
import { TransactionRow } from './TransactionRow';

interface Filters {
  from: string;
  to: string;
  categoryId: string;
  q: string;
}

const EMPTY: Filters = { from: '', to: '', categoryId: '', q: '' };

/** Transactions newest first, filtered by dates, category and text; each one's category edited in place. */
export function TransactionsPage() {
  const { can } = useSession();
  const categories = useCategories();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const list = useInfiniteQuery({
    queryKey: ['finance', 'transactions', filters],
    queryFn: ({ pageParam }) =>
      api<{ transactions: FinanceTransaction[]; nextCursor: string | null }>(
        `/v1/finance/transactions${qs({ ...filters, limit: 50, cursor: pageParam })}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const set = (k: keyof Filters, v: string) => setDraft((d) => ({ ...d, [k]: v }));
  return (
    <section>
      <h1>Transactions</h1>
      <FinanceTabs />
      <form
        className="filters"
        role="search"
        aria-label="Filter transactions"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(draft);
        }}
      >
        <div className="field">
          <label htmlFor="tx-from">From</label>
          <input id="tx-from" type="date" value={draft.from} onChange={(e) => set('from', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="tx-to">To</label>
          <input id="tx-to" type="date" value={draft.to} onChange={(e) => set('to', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="tx-category">Category</label>
          <select id="tx-category" value={draft.categoryId} onChange={(e) => set('categoryId', e.target.value)}>
            <option value="">Any</option>
            {categories.data?.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="tx-q">Search description, counterparty, note</label>
          <input id="tx-q" type="search" value={draft.q} onChange={(e) => set('q', e.target.value)} />
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Filter
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(EMPTY);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <QueryState query={list} what="the transactions">
        {(d) => {
          const rows = d.pages.flatMap((p) => p.transactions);
          if (rows.length === 0) return <Empty>No transactions match. Import a bank export to start.</Empty>;
          return (
            <>
              <div className="table-wrap" role="region" aria-label="Transactions" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Date</th>
                      <th scope="col">Description</th>
                      <th scope="col">Amount</th>
                      <th scope="col">Account</th>
                      <th scope="col">Category</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((t) => (
                      <TransactionRow
                        key={t.id}
                        tx={t}
                        categories={categories.data?.categories ?? []}
                        editable={can('finance:write')}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
              {list.hasNextPage ? (
                <button type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                  Load more
                </button>
              ) : null}
            </>
          );
        }}
      </QueryState>
    </section>
  );
}
