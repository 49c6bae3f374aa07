import type { Eval, EvalRun } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api } from '../../api';
import { Empty, QueryState } from '../../components/States';
import { shortId, when } from '../../components/format';
import { POLL_MS } from '../../hooks';
import { EvalRunStatus, isFinished, percent } from './EvalRunsTable';

/** `/eval-runs/:id`: an eval run's scored cases, each linked to its run; polled until it finishes. */
export function EvalRunPage() {
  const { id = '' } = useParams();
  const run = useQuery({
    queryKey: ['eval-run', id],
    queryFn: () => api<EvalRun>(`/v1/eval-runs/${id}`),
    refetchInterval: (q) => (q.state.data && isFinished(q.state.data) ? false : POLL_MS),
  });
  const evalId = run.data?.evalId;
  const evalQuery = useQuery({
    queryKey: ['eval', evalId],
    queryFn: () => api<Eval>(`/v1/evals/${evalId}`),
    enabled: !!evalId,
  });
  return (
    <section>
      <QueryState query={run} what="the eval run">
        {(r) => (
          <>
            <p>
              <Link to={`/evals/${r.evalId}`}>← {evalQuery.data?.name ?? 'The eval'}</Link>
            </p>
            <h1>Eval run results</h1>
            <dl className="facts">
              <dt>Status</dt>
              <dd data-testid="eval-run-status">
                <EvalRunStatus status={r.status} />
              </dd>
              <dt>Agent version</dt>
              <dd>{r.agentVersion}</dd>
              <dt>Passed</dt>
              <dd>
                {r.passed} of {r.total}
              </dd>
              <dt>Score</dt>
              <dd data-testid="eval-run-score">{percent(r.score)}</dd>
              <dt>Started</dt>
              <dd>{when(r.createdAt)}</dd>
              <dt>Finished</dt>
              <dd>{when(r.completedAt)}</dd>
            </dl>
            <h2>Cases</h2>
            {r.results.length === 0 ? (
              <Empty>{isFinished(r) ? 'No case was scored.' : 'No case scored yet.'}</Empty>
            ) : (
              <div className="table-wrap" role="region" aria-label="Case results" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Case</th>
                      <th scope="col">Score</th>
                      <th scope="col">Result</th>
                      <th scope="col">Run</th>
                      <th scope="col">Detail</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.results.map((c) => (
                      <tr key={c.caseIndex} data-testid="case-result">
                        <td>{c.caseIndex + 1}</td>
                        <td>{c.score}</td>
                        <td className={c.passed ? 'score-pass' : 'score-fail'}>{c.passed ? 'passed' : 'failed'}</td>
                        <td>{c.runId ? <Link to={`/runs/${c.runId}`}>run {shortId(c.runId)}</Link> : 'no run'}</td>
                        <td className="wrap">{c.detail ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
