import type { App, AppTemplate } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api';
import { IssueList } from '../../components/IssueList';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useAgents } from '../../hooks';
import { blankField, FormBuilder, fromDraft, type DraftField } from './FormBuilder';

/** A slug suggested by the name: lowercase letters and digits joined by single hyphens. */
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('-')
    .slice(0, 63);

/** The workspace's apps and a new one, from a template or built field by field. */
export function AppsPage() {
  const apps = useQuery({ queryKey: ['apps'], queryFn: () => api<{ apps: App[] }>('/v1/apps?limit=100') });
  return (
    <section>
      <h1>Apps</h1>
      <p className="muted">A published app is a public web form in front of one agent: each submission is a run.</p>
      <CreateApp />
      <h2>Your apps</h2>
      <QueryState query={apps} what="apps">
        {(d) =>
          d.apps.length === 0 ? (
            <Empty>No apps yet.</Empty>
          ) : (
            <ul className="cards">
              {d.apps.map((a) => (
                <li key={a.id} className="card">
                  <h3 className="card-title">
                    <Link to={`/apps/${a.id}`}>{a.name}</Link> <span className="badge">{a.status}</span>
                  </h3>
                  <p className="small">
                    <code className="wrap">{a.publicUrl}</code> · {a.form.fields.length} field
                    {a.form.fields.length === 1 ? '' : 's'}
                  </p>
                  <p className="small muted">Created {when(a.createdAt)}</p>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

function CreateApp() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const agents = useAgents();
  const templates = useQuery({
    queryKey: ['app-templates'],
    queryFn: () => api<{ templates: AppTemplate[] }>('/v1/app-templates'),
    staleTime: Infinity,
  });
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [agentId, setAgentId] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [fields, setFields] = useState<DraftField[]>([blankField(1)]);
  const create = useMutation({
    mutationFn: () =>
      api<App>('/v1/apps', {
        method: 'POST',
        json: {
          name: name.trim() || undefined,
          slug,
          agentId,
          ...(templateId ? { templateId } : { form: fromDraft(fields) }),
        },
      }),
    onSuccess: (app) => {
      void client.invalidateQueries({ queryKey: ['apps'] });
      navigate(`/apps/${app.id}`);
    },
  });
  const agentList = agents.data?.agents ?? [];
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>New app</h2>
      <div className="row">
        <div className="field">
          <label htmlFor="app-name">Name</label>
          <input
            id="app-name"
            required={!templateId}
            maxLength={200}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              if (!slugEdited) setSlug(slugOf(e.target.value));
            }}
          />
        </div>
        <div className="field">
          <label htmlFor="app-slug">Address (slug): /apps/…</label>
          <input
            id="app-slug"
            className="code"
            required
            minLength={3}
            maxLength={63}
            value={slug}
            onChange={(e) => {
              setSlugEdited(true);
              setSlug(e.target.value);
            }}
          />
        </div>
        <div className="field">
          <label htmlFor="app-agent">Agent that answers</label>
          <select id="app-agent" required value={agentId} onChange={(e) => setAgentId(e.target.value)}>
            <option value="">{agents.isPending ? 'Loading agents…' : 'Choose an agent'}</option>
            {agentList.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="app-template">Start from</label>
          <select id="app-template" value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
            <option value="">A blank form (build it below)</option>
            {(templates.data?.templates ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                Template: {t.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorBox error={agents.error ?? templates.error} title="Could not load the choices" />
      {agents.isSuccess && agentList.length === 0 ? (
        <p className="notice">
          An app needs an agent: <Link to="/agents">create one</Link> first.
        </p>
      ) : null}
      {templateId ? (
        <p className="small muted">
          {templates.data?.templates.find((t) => t.id === templateId)?.description} You can change its form after
          creating the app.
        </p>
      ) : (
        <FormBuilder fields={fields} onChange={setFields} />
      )}
      <ErrorBox error={create.error} title="Could not create the app" />
      <IssueList error={create.error} />
      <div className="actions">
        <button className="primary" type="submit" disabled={create.isPending || !agentId || !slug}>
          Create app
        </button>
      </div>
    </form>
  );
}
