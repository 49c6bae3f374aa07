import type { App } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { IssueList } from '../../components/IssueList';
import { CopyButton } from '../../components/ShownOnce';
import { ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useAgentNames } from '../../hooks';
import { AppDomains } from './AppDomains';
import { AppUsage } from './AppUsage';
import { FormBuilder, fromDraft, toDraft, type DraftField } from './FormBuilder';
import { FormPreview } from './FormPreview';

/** One app: status, its public link, its form (edit and preview), usage and custom domains. */
export function AppPage() {
  const { id = '' } = useParams();
  const app = useQuery({ queryKey: ['apps', id], queryFn: () => api<App>(`/v1/apps/${id}`) });
  return (
    <section>
      <nav className="crumbs" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to="/apps">Apps</Link>
          </li>
          <li aria-current="page">{app.data?.name ?? id.slice(0, 8)}</li>
        </ol>
      </nav>
      <QueryState query={app} what="the app">
        {(a) => <AppView app={a} />}
      </QueryState>
    </section>
  );
}

function AppView({ app }: { app: App }) {
  const client = useQueryClient();
  const agentName = useAgentNames();
  const saved = (a: App) => {
    client.setQueryData(['apps', app.id], a);
    void client.invalidateQueries({ queryKey: ['apps'], exact: true });
  };
  const status = useMutation({
    mutationFn: (to: 'publish' | 'pause') => api<App>(`/v1/apps/${app.id}/${to}`, { method: 'POST' }),
    onSuccess: saved,
  });
  const publicUrl = `${window.location.origin}${app.publicUrl}`;
  return (
    <>
      <h1>
        {app.name} <span className="badge">{app.status}</span>
      </h1>
      {app.description ? <p>{app.description}</p> : null}
      <dl className="facts">
        <dt>Agent</dt>
        <dd>
          <Link to={`/agents/${app.agentId}`}>{agentName(app.agentId)}</Link> ·{' '}
          <Link to={`/runs?agentId=${app.agentId}`}>Runs of this agent</Link>
        </dd>
        <dt>Created</dt>
        <dd>{when(app.createdAt)}</dd>
      </dl>
      <div className="panel">
        <h2>Public link</h2>
        {app.status === 'published' ? (
          <>
            <p>Anyone with this link can fill the form; each submission is a run charged to this workspace.</p>
            <div className="row">
              <a href={publicUrl} target="_blank" rel="noreferrer" className="wrap">
                {publicUrl}
              </a>
              <CopyButton value={publicUrl} label="the public link" />
            </div>
          </>
        ) : (
          <p>
            {app.status === 'draft'
              ? 'A draft is not public yet: publish it to open its link.'
              : 'Paused: the link answers "not found" until you publish again.'}{' '}
            Its address will be <code className="wrap">{publicUrl}</code>.
          </p>
        )}
        <div className="actions">
          {app.status !== 'published' ? (
            <button
              className="primary"
              type="button"
              disabled={status.isPending}
              onClick={() => status.mutate('publish')}
            >
              Publish
            </button>
          ) : (
            <button type="button" disabled={status.isPending} onClick={() => status.mutate('pause')}>
              Pause
            </button>
          )}
        </div>
        <ErrorBox error={status.error} title="Could not change the status" />
      </div>
      <EditForm app={app} onSaved={saved} />
      <AppUsage appId={app.id} />
      <AppDomains app={app} />
      <DeleteApp app={app} />
    </>
  );
}

function EditForm({ app, onSaved }: { app: App; onSaved: (a: App) => void }) {
  const [fields, setFields] = useState<DraftField[]>(() => toDraft(app.form));
  const save = useMutation({
    mutationFn: () => api<App>(`/v1/apps/${app.id}`, { method: 'PATCH', json: { form: fromDraft(fields) } }),
    onSuccess: onSaved,
  });
  const form = fromDraft(fields);
  const changed = JSON.stringify(form) !== JSON.stringify(fromDraft(toDraft(app.form)));
  return (
    <div className="panel">
      <h2>Form</h2>
      <p className="small muted">
        {app.status === 'published' ? 'A saved change is served at once.' : 'Saved changes show once published.'}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <FormBuilder fields={fields} onChange={setFields} />
        <ErrorBox error={save.error} title="Could not save the form" />
        <IssueList error={save.error} />
        {save.isSuccess && !changed ? (
          <p className="notice" role="status">
            Form saved.
          </p>
        ) : null}
        <div className="actions">
          <button className="primary" type="submit" disabled={save.isPending || !changed}>
            Save form
          </button>
        </div>
      </form>
      <FormPreview name={app.name} description={app.description} form={form} />
    </div>
  );
}

function DeleteApp({ app }: { app: App }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => api(`/v1/apps/${app.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['apps'] });
      navigate('/apps');
    },
  });
  return (
    <div className="actions">
      <ConfirmDelete
        label="Delete app"
        question={`Delete ${app.name}? Its link and domains stop at once; its runs stay.`}
        confirmLabel="Yes, delete this app"
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
      <ErrorBox error={remove.error} title="Could not delete" />
    </div>
  );
}
