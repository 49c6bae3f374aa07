import type { SavedTable, SavedTableRows } from '@svc/client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, qs } from '../../api';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ErrorBox, QueryState } from '../../components/States';
import { json, when } from '../../components/format';
import { useSession } from '../../session';
import { ResultGrid } from './ResultGrid';
import { TableStatus } from './TableStatus';

/** One saved table: its read, schedule and status, a refresh by hand, and its rows page by page. */
export function SavedTablePage() {
  const { id = '' } = useParams();
  const { can } = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  // after a refresh by hand, ask until its result shows (a newer refreshedAt, or an error)
  const [waitingSince, setWaitingSince] = useState<string | null | undefined>(undefined);
  const table = useQuery({
    queryKey: ['saved-tables', id],
    queryFn: () => api<SavedTable>(`/v1/saved-tables/${id}`),
    refetchInterval: (q) => {
      const t = q.state.data;
      if (!t) return false;
      const waiting = waitingSince !== undefined && t.refreshedAt === waitingSince && t.status !== 'error';
      return t.status === 'pending' || waiting ? 2000 : false;
    },
  });
  const refreshedAt = table.data?.refreshedAt ?? null;
  const rows = useInfiniteQuery({
    queryKey: ['saved-tables', id, 'rows', refreshedAt],
    queryFn: ({ pageParam }) =>
      api<SavedTableRows>(`/v1/saved-tables/${id}/rows${qs({ limit: 100, cursor: pageParam })}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: Boolean(table.data),
  });
  const refresh = useMutation({
    mutationFn: () => api<SavedTable>(`/v1/saved-tables/${id}/refresh`, { method: 'POST' }),
    onMutate: () => setWaitingSince(refreshedAt),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['saved-tables', id] }),
  });
  const remove = useMutation({
    mutationFn: () => api(`/v1/saved-tables/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['saved-tables'] });
      navigate('/saved-tables');
    },
  });
  return (
    <section>
      <p className="small">
        <Link to="/saved-tables">All saved tables</Link>
      </p>
      <QueryState query={table} what="the saved table">
        {(t) => (
          <>
            <h1>
              {t.name} <TableStatus table={t} />
            </h1>
            <dl className="facts">
              <dt>Source</dt>
              <dd>
                <Link to={`/data-sources/${t.dataSourceId}`}>Open the data source</Link>
              </dd>
              <dt>Schedule</dt>
              <dd>{t.refresh.cron ? <code>{t.refresh.cron}</code> : 'By hand only'}</dd>
              <dt>Rows</dt>
              <dd data-testid="row-count">{t.rowCount}</dd>
              <dt>Last good refresh</dt>
              <dd>{when(t.refreshedAt)}</dd>
            </dl>
            {t.status === 'error' ? (
              <p className="error" role="alert">
                The last refresh failed: {t.error}. The rows below are those of the last good refresh.
              </p>
            ) : null}
            <details>
              <summary>The read</summary>
              <pre className="json">{json(t.read)}</pre>
            </details>
            <div className="actions">
              <button
                type="button"
                disabled={refresh.isPending || t.status === 'pending'}
                onClick={() => refresh.mutate()}
              >
                Refresh now
              </button>
              {can('data_sources:manage') ? (
                <ConfirmDelete
                  confirmLabel="Yes, delete the table, its rows and its schedule"
                  pending={remove.isPending}
                  onConfirm={() => remove.mutate()}
                />
              ) : null}
            </div>
            <ErrorBox error={refresh.error} title="Could not refresh" />
            <ErrorBox error={remove.error} title="Could not delete" />
            <h2>Rows</h2>
            <QueryState query={rows} what="the rows">
              {(d) => (
                <>
                  <ResultGrid label={`Rows of ${t.name}`} columns={t.columns} rows={d.pages.flatMap((p) => p.rows)} />
                  {rows.hasNextPage ? (
                    <button type="button" disabled={rows.isFetchingNextPage} onClick={() => void rows.fetchNextPage()}>
                      Load more rows
                    </button>
                  ) : null}
                </>
              )}
            </QueryState>
          </>
        )}
      </QueryState>
    </section>
  );
}
