import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { api } from '../../api';
import { JsonEditor, jsonProblem } from '../../components/JsonEditor';
import { ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';
import { OnceShownUrl } from './FlowBadges';
import { FlowEditor } from './FlowEditor';
import { FlowRunsList } from './FlowRunsList';
import { useFlow, type Flow, type FlowRun } from './flowApi';
import { TRIGGER_LABELS } from './TriggerFields';
import './flows.css';

/** One flow: its trigger settings, run now, pause and resume, edit, delete, and its runs. */
export function FlowPage() {
  const { id = '' } = useParams();
  const flow = useFlow(id);
  return (
    <section>
      <p className="small">
        <Link to="/flows">← Flows</Link>
      </p>
      <QueryState query={flow} what="the flow">
        {(f) => <FlowView flow={f} />}
      </QueryState>
    </section>
  );
}

function FlowView({ flow }: { flow: Flow }) {
  const { can } = useSession();
  const manage = can('flows:manage');
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // The URL with the token that creating the flow (or saving it with a webhook trigger) made: shown on this
  // page only, and taken out of the browser's history so that a reload or "back" does not show it again.
  const [madeUrl, setMadeUrl] = useState<string | null>(
    () => (location.state as { webhookUrl?: string | null } | null)?.webhookUrl ?? null,
  );
  useEffect(() => {
    if (location.state) navigate(location.pathname, { replace: true, state: null });
  }, [location.state, location.pathname, navigate]);
  const refresh = (f?: Flow) => {
    if (f) client.setQueryData(['flow', flow.id], f);
    void client.invalidateQueries({ queryKey: ['flows'] });
  };
  const status = useMutation({
    mutationFn: (next: 'active' | 'paused') =>
      api<Flow>(`/v1/flows/${flow.id}`, { method: 'PATCH', json: { status: next } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => api(`/v1/flows/${flow.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['flows'] });
      navigate('/flows');
    },
  });
  return (
    <>
      <h1>
        {flow.name}{' '}
        <span className={`badge badge-flow-${flow.status}`}>{flow.status === 'active' ? 'Active' : 'Paused'}</span>
      </h1>
      {flow.description ? <p>{flow.description}</p> : null}
      <p className="small muted">
        {flow.steps.length} step{flow.steps.length === 1 ? '' : 's'} · updated {when(flow.updatedAt)}
      </p>
      {manage ? (
        <div className="actions">
          {flow.status === 'active' ? (
            <button type="button" disabled={status.isPending} onClick={() => status.mutate('paused')}>
              Pause
            </button>
          ) : (
            <button type="button" disabled={status.isPending} onClick={() => status.mutate('active')}>
              Resume
            </button>
          )}
          <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            {editing ? 'Close the editor' : 'Edit'}
          </button>
          {confirming ? (
            <>
              <button className="danger" type="button" disabled={remove.isPending} onClick={() => remove.mutate()}>
                Yes, delete this flow and its runs
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button className="danger" type="button" onClick={() => setConfirming(true)}>
              Delete
            </button>
          )}
        </div>
      ) : null}
      <ErrorBox error={status.error} title="Could not change the status" />
      <ErrorBox error={remove.error} title="Could not delete the flow" />
      {editing ? (
        <FlowEditor
          flow={flow}
          onSaved={(f) => {
            refresh(f);
            if (f.webhookUrl) setMadeUrl(f.webhookUrl);
            setEditing(false);
          }}
        />
      ) : null}
      <TriggerPanel flow={flow} manage={manage} made={madeUrl} />
      <h2>Runs</h2>
      <FlowRunsList flowId={flow.id} />
    </>
  );
}

/** The trigger: what starts the flow, its webhook URL (once) and rotation, and a manual run with input. */
function TriggerPanel({ flow, manage, made }: { flow: Flow; manage: boolean; made: string | null }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [input, setInput] = useState('{}');
  const rotate = useMutation({
    mutationFn: () => api<{ webhookUrl: string }>(`/v1/flows/${flow.id}/webhook-token`, { method: 'POST' }),
  });
  const run = useMutation({
    mutationFn: () => api<FlowRun>(`/v1/flows/${flow.id}/run`, { method: 'POST', json: { input: JSON.parse(input) } }),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: ['flow-runs', flow.id] });
      navigate(`/flow-runs/${r.id}`);
    },
  });
  const shown = rotate.data?.webhookUrl ?? (flow.trigger.type === 'webhook' ? made : null);
  return (
    <div className="panel">
      <h2>Trigger</h2>
      <p>{TRIGGER_LABELS[flow.trigger.type]}</p>
      {flow.trigger.type === 'schedule' ? (
        <dl className="facts">
          <dt>Cron</dt>
          <dd>
            <code>{flow.trigger.cron}</code>
          </dd>
          <dt>Time zone</dt>
          <dd>{flow.trigger.timezone ?? 'UTC'}</dd>
          <dt>Runs</dt>
          <dd>{flow.status === 'active' ? 'on every tick of the schedule' : 'not while the flow is paused'}</dd>
        </dl>
      ) : null}
      {flow.trigger.type === 'webhook' ? (
        <>
          <p className="small">
            A POST of any JSON to the flow&apos;s webhook URL starts a run; the JSON is the trigger data. Only the
            URL&apos;s fingerprint is stored, so it is shown once, when it is made.
          </p>
          {shown ? (
            <OnceShownUrl
              url={shown}
              label={rotate.data ? 'A new webhook URL; the old one no longer works.' : 'The webhook URL.'}
            />
          ) : null}
          {manage ? (
            <button type="button" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
              Rotate the webhook URL
            </button>
          ) : null}
          <ErrorBox error={rotate.error} title="Could not rotate the URL" />
        </>
      ) : null}
      {manage ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            run.mutate();
          }}
        >
          <h3>Run now</h3>
          <JsonEditor label="Trigger data (JSON object)" value={input} onChange={setInput} rows={3} requireObject />
          <ErrorBox error={run.error} title="Could not start a run" />
          <button
            className="primary"
            type="submit"
            disabled={run.isPending || flow.status === 'paused' || jsonProblem(input, true) !== null}
          >
            Run now
          </button>
          {flow.status === 'paused' ? <p className="small muted">Resume the flow to run it.</p> : null}
        </form>
      ) : null}
    </div>
  );
}
