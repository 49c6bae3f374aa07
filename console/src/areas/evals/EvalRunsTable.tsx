import type { EvalRun } from '@svc/client';
import { Link } from 'react-router';
import { when } from '../../components/format';

export const isFinished = (r: EvalRun) => r.status === 'succeeded' || r.status === 'failed';

/** A score 0..1 as a percentage; `null` (nothing scored yet) as a dash. */
export const percent = (score: number | null) => (score === null ? '—' : `${Math.round(score * 1000) / 10} %`);

const BADGE: Record<EvalRun['status'], string> = {
  queued: 'badge-queued',
  running: 'badge-running',
  succeeded: 'badge-succeeded',
  failed: 'badge-failed',
};

export const EvalRunStatus = ({ status }: { status: EvalRun['status'] }) => (
  <span className={`badge ${BADGE[status]}`}>{status}</span>
);

/** An eval's runs, newest first, each linked to its results. */
export function EvalRunsTable({ runs }: { runs: EvalRun[] }) {
  return (
    <div className="table-wrap" role="region" aria-label="Eval runs" tabIndex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Version</th>
            <th scope="col">Status</th>
            <th scope="col">Passed</th>
            <th scope="col">Score</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id} data-testid="eval-run">
              <td>
                <Link to={`/eval-runs/${r.id}`}>{when(r.createdAt)}</Link>
              </td>
              <td>{r.agentVersion}</td>
              <td>
                <EvalRunStatus status={r.status} />
              </td>
              <td>
                {r.passed} of {r.total}
              </td>
              <td>{percent(r.score)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
