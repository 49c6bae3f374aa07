import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api';
import { ErrorBox, QueryState } from '../../components/States';
import { useAgents } from '../../hooks';
import { useSession } from '../../session';
import { issuesOf, type Flow, type FlowTemplate } from './flowApi';
import { StepEditor } from './StepEditor';
import { blankDraft, stepOf, type StepDraft } from './stepDraft';
import { TriggerFields, triggerOf, type TriggerDraft } from './TriggerFields';
import './flows.css';

/** Where a new flow lands: its page, carrying the webhook URL the creating answer showed once. */
function useCreated() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return (flow: Flow) => {
    void client.invalidateQueries({ queryKey: ['flows'] });
    navigate(`/flows/${flow.id}`, { state: { webhookUrl: flow.webhookUrl } });
  };
}

/** A new flow, from a template or from scratch (docs/api/flows.md). */
export function NewFlowPage() {
  const { can } = useSession();
  const [mode, setMode] = useState<'template' | 'scratch'>('template');
  if (!can('flows:manage')) {
    return (
      <section>
        <h1>New flow</h1>
        <p>Your role may read flows but not create them.</p>
      </section>
    );
  }
  return (
    <section>
      <p className="small">
        <Link to="/flows">← Flows</Link>
      </p>
      <h1>New flow</h1>
      <fieldset className="mode">
        <legend>Start</legend>
        <label className="check">
          <input type="radio" name="mode" checked={mode === 'template'} onChange={() => setMode('template')} /> From a
          template
        </label>
        <label className="check">
          <input type="radio" name="mode" checked={mode === 'scratch'} onChange={() => setMode('scratch')} /> From
          scratch
        </label>
      </fieldset>
      {mode === 'template' ? <FromTemplate /> : <FromScratch />}
    </section>
  );
}

function FromTemplate() {
  const created = useCreated();
  const agents = useAgents();
  const templates = useQuery({
    queryKey: ['flow-templates'],
    queryFn: () => api<{ templates: FlowTemplate[] }>('/v1/flow-templates'),
  });
  const [templateId, setTemplateId] = useState('');
  const [name, setName] = useState('');
  const [agentId, setAgentId] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api<Flow>('/v1/flows', {
        method: 'POST',
        json: { templateId, name: name.trim(), ...(agentId ? { agentId } : {}) },
      }),
    onSuccess: created,
  });
  const issues = issuesOf(create.error);
  const at = (f: string) => issues.filter((i) => i.path === f).map((i) => i.message);
  return (
    <QueryState query={templates} what="templates">
      {(d) => {
        const chosen = d.templates.find((t) => t.id === templateId);
        return (
          <form
            className="panel"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate();
            }}
          >
            <h2>From a template</h2>
            <fieldset>
              <legend>Template</legend>
              <div className="checks column">
                {d.templates.map((t) => (
                  <label key={t.id} className="check template-choice">
                    <input
                      type="radio"
                      name="template"
                      value={t.id}
                      checked={templateId === t.id}
                      onChange={() => setTemplateId(t.id)}
                    />{' '}
                    <span>
                      <strong>{t.name}</strong> <span className="muted small">({t.trigger.type})</span>
                      <br />
                      <span className="small">{t.description}</span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="field">
              <label htmlFor="template-flow-name">Name</label>
              <input
                id="template-flow-name"
                required
                maxLength={200}
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
              {at('name').length ? <span className="invalid small">{at('name').join('; ')}</span> : null}
            </div>
            {chosen?.needsAgent ? (
              <div className="field">
                <label htmlFor="template-agent">Agent its agent steps use</label>
                <select id="template-agent" required value={agentId} onChange={(e) => setAgentId(e.target.value)}>
                  <option value="">Choose an agent…</option>
                  {(agents.data?.agents ?? []).map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name}
                    </option>
                  ))}
                </select>
                {at('agentId').length ? <span className="invalid small">{at('agentId').join('; ')}</span> : null}
              </div>
            ) : null}
            <ErrorBox error={create.error} title="Could not create the flow" />
            <button className="primary" type="submit" disabled={create.isPending || !templateId || !name.trim()}>
              Create flow
            </button>
          </form>
        );
      }}
    </QueryState>
  );
}

function FromScratch() {
  const created = useCreated();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [trigger, setTrigger] = useState<TriggerDraft>({ type: 'manual', cron: '', timezone: 'UTC' });
  const [drafts, setDrafts] = useState<StepDraft[]>(() => [blankDraft('approval', 'approve')]);
  const built = drafts.map(stepOf);
  const problems = built.map((b) => b.problems);
  const create = useMutation({
    mutationFn: () =>
      api<Flow>('/v1/flows', {
        method: 'POST',
        json: {
          name: name.trim(),
          ...(description.trim() ? { description: description.trim() } : {}),
          trigger: triggerOf(trigger),
          steps: built.map((b) => b.step),
        },
      }),
    onSuccess: created,
  });
  const issues = issuesOf(create.error);
  const blocked = problems.some((p) => p.length > 0);
  return (
    <form
      className="panel"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!blocked) create.mutate();
      }}
    >
      <h2>From scratch</h2>
      <div className="field">
        <label htmlFor="flow-name">Name</label>
        <input id="flow-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="flow-description">Description (optional)</label>
        <input id="flow-description" value={description} onChange={(e) => setDescription(e.target.value)} />
      </div>
      <TriggerFields value={trigger} onChange={setTrigger} issues={issues} />
      <StepEditor drafts={drafts} onChange={setDrafts} issues={issues} problems={problems} />
      <ErrorBox error={create.error} title="Could not create the flow" />
      {blocked ? (
        <p className="invalid small" role="status">
          Fix the steps marked above before saving.
        </p>
      ) : null}
      <button className="primary" type="submit" disabled={create.isPending || !name.trim() || blocked}>
        Create flow
      </button>
    </form>
  );
}
