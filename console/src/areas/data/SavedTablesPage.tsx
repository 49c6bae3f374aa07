import type { DataSource, SavedTable } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api';
import { Empty, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { TableStatus } from './TableStatus';

/** Every saved table: its source, schedule, rows and last refresh. */
export function SavedTablesPage() {
  const tables = useQuery({
    queryKey: ['saved-tables'],
    queryFn: () => api<{ savedTables: SavedTable[] }>('/v1/saved-tables?limit=100'),
  });
  const sources = useQuery({
    queryKey: ['data-sources'],
    queryFn: () => api<{ dataSources: DataSource[] }>('/v1/data-sources?limit=100'),
  });
  const sourceName = (id: string) => sources.data?.dataSources.find((s) => s.id === id)?.name ?? id.slice(0, 8);
  return (
    <section>
      <h1>Saved tables</h1>
      <p className="small muted">Make one from a data source's page: read it with the builder, then save the read.</p>
      <QueryState query={tables} what="the saved tables">
        {(d) =>
          d.savedTables.length === 0 ? (
            <Empty>
              No saved tables yet. <Link to="/data-sources">Open a data source</Link> to make one.
            </Empty>
          ) : (
            <ul className="cards">
              {d.savedTables.map((t) => (
                <li key={t.id} className="card">
                  <h2 className="card-title">
                    <Link to={`/saved-tables/${t.id}`}>{t.name}</Link> <TableStatus table={t} />
                  </h2>
                  <p className="small">
                    From {sourceName(t.dataSourceId)} · {t.rowCount} rows ·{' '}
                    {t.refresh.cron ? `refreshed on "${t.refresh.cron}" (UTC)` : 'refreshed by hand'}
                  </p>
                  <p className="small muted">Last refresh {when(t.refreshedAt)}</p>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
