import type { Eval, EvalRun } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { Empty, ErrorBox, Loading, QueryState } from '../../components/States';
import { json, when } from '../../components/format';
import { POLL_MS } from '../../hooks';
import { useSession } from '../../session';
import { EvalRunsTable, isFinished } from './EvalRunsTable';

// the chart library is loaded only when there are scores to draw
const ScoreChart = lazy(() => import('./ScoreChart').then((m) => ({ default: m.ScoreChart })));

/** `/evals/:id`: the eval's cases, its runs and their scores over time, and a new run. */
export function EvalDetailPage() {
  const { id = '' } = useParams();
  const { can } = useSession();
  const evalQuery = useQuery({ queryKey: ['eval', id], queryFn: () => api<Eval>(`/v1/evals/${id}`) });
  const runs = useQuery({
    queryKey: ['eval', id, 'runs'],
    queryFn: () => api<{ evalRuns: EvalRun[]; nextCursor: string | null }>(`/v1/evals/${id}/runs?limit=100`),
    refetchInterval: (q) => (q.state.data?.evalRuns.some((r) => !isFinished(r)) ? POLL_MS : false),
  });
  return (
    <section>
      <QueryState query={evalQuery} what="the eval">
        {(e) => (
          <>
            <p>
              <Link to={`/evals?agentId=${e.agentId}`}>← This agent's evals</Link>
            </p>
            <h1>{e.name}</h1>
            <p className="muted">
              {e.cases.length} {e.cases.length === 1 ? 'case' : 'cases'} · created {when(e.createdAt)} ·{' '}
              <Link to={`/agents/${e.agentId}`}>the agent</Link>
            </p>
            {can('agents:write') ? <StartRun evalId={e.id} /> : null}
            <h2>Eval runs</h2>
            <QueryState query={runs} what="eval runs">
              {(d) =>
                d.evalRuns.length === 0 ? (
                  <Empty>Not run yet.</Empty>
                ) : (
                  <>
                    <EvalRunsTable runs={d.evalRuns} />
                    <Suspense fallback={<Loading what="Loading the chart" />}>
                      <ScoreChart runs={d.evalRuns} />
                    </Suspense>
                  </>
                )
              }
            </QueryState>
            <h2>Cases</h2>
            <ol className="cards">
              {e.cases.map((c, i) => (
                <li key={i} className="card">
                  <h3 className="card-title">
                    Case {i + 1} <span className="badge">{c.scorer}</span>
                  </h3>
                  <p className="small">Input</p>
                  <pre className="json">{json(c.input)}</pre>
                  <p className="small">Expected</p>
                  <pre className="json">{json(c.expected)}</pre>
                  {c.answers?.length ? <p className="small">Answers: {c.answers.join(' · ')}</p> : null}
                </li>
              ))}
            </ol>
            {can('agents:write') ? <Manage evalItem={e} /> : null}
          </>
        )}
      </QueryState>
    </section>
  );
}

function StartRun({ evalId }: { evalId: string }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [version, setVersion] = useState('');
  const start = useMutation({
    mutationFn: () =>
      api<EvalRun>(`/v1/evals/${evalId}/runs`, {
        method: 'POST',
        json: version.trim() ? { version: Number(version) } : {},
      }),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: ['eval', evalId, 'runs'] });
      navigate(`/eval-runs/${r.id}`);
    },
  });
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        start.mutate();
      }}
    >
      <h2>Run this eval</h2>
      <p className="small muted">Each case becomes a real run of the agent, charged like any other.</p>
      <div className="field picker">
        <label htmlFor="eval-version">Agent version (blank: the current one)</label>
        <input
          id="eval-version"
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={version}
          onChange={(e) => setVersion(e.target.value)}
        />
      </div>
      <ErrorBox error={start.error} title="Could not start the eval run" />
      <button className="primary" type="submit" disabled={start.isPending}>
        Start an eval run
      </button>
    </form>
  );
}

function Manage({ evalItem }: { evalItem: Eval }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api(`/v1/evals/${evalItem.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['evals', evalItem.agentId] });
      navigate(`/evals?agentId=${evalItem.agentId}`);
    },
  });
  return (
    <div className="actions">
      <Link className="button" to={`/evals/new?from=${evalItem.id}`}>
        Edit the cases (saves a new eval)
      </Link>
      <ConfirmDelete
        confirmLabel="Yes, delete the eval and its eval runs"
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
      <ErrorBox error={remove.error} title="Could not delete" />
    </div>
  );
}
