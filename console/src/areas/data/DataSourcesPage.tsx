import type { DataSource } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api';
import { Empty, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';
import { CreateDataSource } from './CreateDataSource';
import { SourceStatus } from './SourceStatus';

/** The workspace's data sources, and a form for a new one (PostgreSQL, MySQL or uploaded sheets). */
export function DataSourcesPage() {
  const { can } = useSession();
  const sources = useQuery({
    queryKey: ['data-sources'],
    queryFn: () => api<{ dataSources: DataSource[] }>('/v1/data-sources?limit=100'),
  });
  return (
    <section>
      <h1>Data sources</h1>
      {can('data_sources:manage') ? <CreateDataSource /> : null}
      <QueryState query={sources} what="the data sources">
        {(d) =>
          d.dataSources.length === 0 ? (
            <Empty>No data sources yet.</Empty>
          ) : (
            <ul className="cards">
              {d.dataSources.map((s) => (
                <li key={s.id} className="card">
                  <h2 className="card-title">
                    <Link to={`/data-sources/${s.id}`}>{s.name}</Link> <SourceStatus status={s.status} />
                  </h2>
                  <p className="small">
                    {s.type === 'file'
                      ? 'Uploaded sheets'
                      : `${s.type === 'postgres' ? 'PostgreSQL' : 'MySQL'} · ${s.config.user ?? ''}@${s.config.host ?? ''}:${s.config.port ?? ''}/${s.config.database ?? ''}`}
                  </p>
                  <p className="small muted">Created {when(s.createdAt)}</p>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
