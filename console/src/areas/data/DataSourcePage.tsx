import type { DataSource, DataSourceTestResult, SourceObjectDetail } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';
import { CopilotPanel } from './CopilotPanel';
import { ObjectsPanel } from './ObjectsPanel';
import { QueryBuilder } from './QueryBuilder';
import { SheetUpload } from './SheetUpload';
import { SourceStatus } from './SourceStatus';
import './data.css';

/** One source: test it, upload sheets, browse its objects, read them with the builder, ask the copilot. */
export function DataSourcePage() {
  const { id = '' } = useParams();
  const source = useQuery({ queryKey: ['data-sources', id], queryFn: () => api<DataSource>(`/v1/data-sources/${id}`) });
  const [object, setObject] = useState<SourceObjectDetail | null>(null);
  return (
    <section>
      <p className="small">
        <Link to="/data-sources">All data sources</Link>
      </p>
      <QueryState query={source} what="the data source">
        {(s) => (
          <>
            <h1>
              {s.name} <SourceStatus status={s.status} />
            </h1>
            <SourceFacts source={s} />
            {s.type === 'file' ? <SheetUpload sourceId={s.id} /> : null}
            <div className="data-columns">
              <ObjectsPanel sourceId={s.id} selected={object?.name ?? null} onSelect={setObject} />
              <div className="data-main">
                {object ? (
                  <QueryBuilder key={object.name} sourceId={s.id} object={object} />
                ) : (
                  <p className="empty">Choose an object to read it.</p>
                )}
              </div>
            </div>
            <CopilotPanel sourceId={s.id} />
          </>
        )}
      </QueryState>
    </section>
  );
}

function SourceFacts({ source }: { source: DataSource }) {
  const { can } = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  const test = useMutation({
    mutationFn: () => api<DataSourceTestResult>(`/v1/data-sources/${source.id}/test`, { method: 'POST' }),
    onSettled: () => void client.invalidateQueries({ queryKey: ['data-sources'] }),
  });
  const remove = useMutation({
    mutationFn: () => api(`/v1/data-sources/${source.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['data-sources'] });
      navigate('/data-sources');
    },
  });
  const c = source.config;
  return (
    <>
      <dl className="facts">
        <dt>Type</dt>
        <dd>{source.type === 'file' ? 'Uploaded sheets' : source.type === 'postgres' ? 'PostgreSQL' : 'MySQL'}</dd>
        {source.type !== 'file' ? (
          <>
            <dt>Server</dt>
            <dd>
              {c.host}:{c.port} · database {c.database} · user {c.user}
              {c.ssl ? ' · TLS' : ''}
            </dd>
          </>
        ) : null}
        <dt>Updated</dt>
        <dd>{when(source.updatedAt)}</dd>
      </dl>
      {can('data_sources:manage') ? (
        <div className="actions">
          <button type="button" disabled={test.isPending} onClick={() => test.mutate()}>
            {test.isPending ? 'Testing…' : 'Test the connection'}
          </button>
          <ConfirmDelete
            confirmLabel="Yes, delete it with its sheets and saved tables"
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </div>
      ) : null}
      {test.data ? (
        <p className={test.data.ok ? 'notice' : 'error'} role="status" data-testid="test-result">
          {test.data.ok ? 'Connected' : `Failed: ${test.data.error ?? 'unknown error'}`} in {test.data.latencyMs} ms
        </p>
      ) : null}
      <ErrorBox error={test.error} title="Could not test" />
      <ErrorBox error={remove.error} title="Could not delete" />
    </>
  );
}
