import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import { ApprovalProgress, waitsOnMe } from '../components/ApprovalProgress';
import { GateForm } from '../components/GateForm';
import { ErrorBox, QueryState } from '../components/States';
import { StatusBadge } from '../components/StatusBadge';
import { json, usd, when } from '../components/format';
import { useRunEvents } from '../events';
import { RUN_POLL_MS, useAgentNames } from '../hooks';
import { useSession } from '../session';
import { TERMINAL, type Run, type RunArtifact, type Step } from '../types';
import { downloadFile } from '../upload';

export function RunDetailPage() {
  const { id = '' } = useParams();
  const client = useQueryClient();
  const { can, settings, me, workspace } = useSession();
  const person = { userId: me.user.id, role: workspace.role };
  const name = useAgentNames();
  const run = useQuery({
    queryKey: ['run', id],
    queryFn: () => api<Run>(`/v1/runs/${id}`),
    refetchInterval: (q) => (q.state.data && TERMINAL.includes(q.state.data.status) ? false : RUN_POLL_MS),
  });
  const steps = useQuery({
    queryKey: ['run', id, 'steps'],
    queryFn: () => api<{ steps: Step[] }>(`/v1/runs/${id}/steps`),
    refetchInterval: () => (run.data && TERMINAL.includes(run.data.status) ? false : RUN_POLL_MS),
  });
  const stream = useRunEvents(id, (e) => {
    if (e.event === 'run.status' && e.data && typeof e.data === 'object')
      client.setQueryData(['run', id], e.data as Run);
    if (e.event === 'run.step') void client.invalidateQueries({ queryKey: ['run', id, 'steps'] });
  });
  const cancel = useMutation({
    mutationFn: () => api<Run>(`/v1/runs/${id}/cancel`, { method: 'POST' }),
    onSuccess: (r) => client.setQueryData(['run', id], r),
  });
  return (
    <section>
      <p>
        <Link to="/runs">← All runs</Link>
      </p>
      <QueryState query={run} what="the run">
        {(r) => {
          const terminal = TERMINAL.includes(r.status);
          return (
            <>
              <h1>
                Run {r.id.slice(0, 8)} <StatusBadge status={r.status} />
              </h1>
              <dl className="facts">
                <dt>Run id</dt>
                <dd>
                  <code>{r.id}</code>
                </dd>
                <dt>Agent</dt>
                <dd>
                  {name(r.agentId)} (version {r.agentVersion})
                </dd>
                <dt>Created</dt>
                <dd>{when(r.createdAt)}</dd>
                <dt>Completed</dt>
                <dd>{when(r.completedAt)}</dd>
                <dt>Usage</dt>
                <dd>
                  {r.usage.inputTokens} input tokens, {r.usage.outputTokens} output tokens, cost {usd(r.usage.costUsd)}
                </dd>
                {settings.temporalUiUrl ? (
                  <>
                    <dt>Workflow</dt>
                    <dd>
                      <a
                        href={`${settings.temporalUiUrl}/namespaces/${encodeURIComponent(settings.namespace)}/workflows/run-${r.id}`}
                        target="_blank"
                        rel="noreferrer"
                      >
                        Open in Temporal UI
                      </a>
                    </dd>
                  </>
                ) : null}
              </dl>
              {!terminal && can('runs:write') ? (
                <div className="actions">
                  <button className="danger" type="button" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
                    Cancel run
                  </button>
                </div>
              ) : null}
              <ErrorBox error={cancel.error} title="Could not cancel" />
              {r.pendingAction && can('runs:write') ? (
                <div className="panel">
                  <h2>{waitsOnMe(r.pendingAction, person) ? 'Waiting for you' : 'Waiting on others'}</h2>
                  <ApprovalProgress action={r.pendingAction} />
                  <GateForm key={r.pendingAction.id} run={r} />
                </div>
              ) : null}
              <h2>Input</h2>
              <pre className="json" aria-label="Input">
                {json(r.input)}
              </pre>
              <h2>Output</h2>
              <pre className="json" data-testid="run-output" aria-label="Output">
                {r.output === null || r.output === undefined ? 'No output yet' : json(r.output)}
              </pre>
              {r.error ? (
                <>
                  <h2>Error</h2>
                  <p className="error">
                    <code>{r.error.code}</code>: {r.error.message}
                  </p>
                </>
              ) : null}
              <p>
                <a href={`/v1/runs/${encodeURIComponent(r.id)}/report?format=html`} target="_blank" rel="noreferrer">
                  Printable report
                </a>
              </p>
              <Artifacts runId={r.id} terminal={terminal} />
              {terminal && can('feedback:write') ? <Feedback runId={r.id} /> : null}
            </>
          );
        }}
      </QueryState>
      <h2>Steps</h2>
      <QueryState query={steps} what="steps">
        {(d) =>
          d.steps.length === 0 ? (
            <p className="empty">No steps yet.</p>
          ) : (
            <ol className="timeline">
              {d.steps.map((s) => (
                <li key={s.index}>
                  <strong>{s.type}</strong> <span className={`step-${s.status}`}>{s.status}</span>{' '}
                  <span className="small muted">
                    {when(s.startedAt)}
                    {s.completedAt ? ` → ${when(s.completedAt)}` : ''}
                  </span>
                  <details>
                    <summary>Detail of step {s.index + 1}</summary>
                    <pre className="json">{json(s.detail)}</pre>
                  </details>
                </li>
              ))}
            </ol>
          )
        }
      </QueryState>
      <h2>Events</h2>
      <ErrorBox error={stream.error} title="The event stream was interrupted" />
      {stream.events.length === 0 ? (
        <p className="empty">No events received yet.</p>
      ) : (
        <ol className="events" aria-live="off">
          {stream.events.map((e, i) => (
            <li key={`${e.id}-${i}`}>
              <code>#{e.id}</code> <strong>{e.event}</strong>{' '}
              {e.event === 'run.status' ? (e.data as Run).status : e.event === 'run.step' ? (e.data as Step).type : ''}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The files the run produced, each downloadable (the file library's content route). */
function Artifacts({ runId, terminal }: { runId: string; terminal: boolean }) {
  const artifacts = useQuery({
    queryKey: ['run', runId, 'artifacts'],
    queryFn: () => api<{ artifacts: RunArtifact[] }>(`/v1/runs/${runId}/artifacts?limit=100`),
    refetchInterval: terminal ? false : RUN_POLL_MS,
  });
  const download = useMutation({
    mutationFn: (a: RunArtifact) => downloadFile({ id: a.fileId, filename: a.name }),
  });
  return (
    <>
      <h2>Artifacts</h2>
      <QueryState query={artifacts} what="artifacts">
        {(d) =>
          d.artifacts.length === 0 ? (
            <p className="empty">This run produced no files.</p>
          ) : (
            <ul aria-label="Artifacts">
              {d.artifacts.map((a) => (
                <li key={a.fileId}>
                  <button type="button" className="link" onClick={() => download.mutate(a)}>
                    {a.name}
                  </button>{' '}
                  <span className="small muted">
                    {a.mime}, {a.size} bytes{a.step === null ? '' : `, step ${a.step + 1}`}
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <ErrorBox error={download.error} title="Could not download the file" />
    </>
  );
}

function Feedback({ runId }: { runId: string }) {
  const [rating, setRating] = useState('5');
  const [comment, setComment] = useState('');
  const send = useMutation({
    mutationFn: () =>
      api(`/v1/runs/${runId}/feedback`, {
        method: 'POST',
        json: { rating: Number(rating), ...(comment.trim() ? { comment: comment.trim() } : {}) },
      }),
  });
  if (send.isSuccess)
    return (
      <p className="notice" role="status">
        Thank you for your feedback.
      </p>
    );
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        send.mutate();
      }}
    >
      <h2>Feedback</h2>
      <div className="field">
        <label htmlFor="fb-rating">Rating</label>
        <select id="fb-rating" value={rating} onChange={(e) => setRating(e.target.value)}>
          {[5, 4, 3, 2, 1].map((n) => (
            <option key={n} value={n}>
              {n} of 5
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="fb-comment">Comment (optional)</label>
        <textarea id="fb-comment" rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
      </div>
      <ErrorBox error={send.error} title="Could not send feedback" />
      <button type="submit" disabled={send.isPending}>
        Send feedback
      </button>
    </form>
  );
}
