import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, ApiError } from '../../api';
import { ApprovalProgress } from '../../components/ApprovalProgress';
import { FlowApprovalForm } from '../../components/FlowApprovalForm';
import { ErrorBox, QueryState } from '../../components/States';
import { json, shortId, when } from '../../components/format';
import { POLL_MS } from '../../hooks';
import { useSession } from '../../session';
import { FlowStatusBadge } from './FlowBadges';
import { isFlowRunDone, type FlowRun } from './flowApi';
import './flows.css';

/**
 * One flow run: its status, the timeline of its steps, the approval it waits for (under a policy: the
 * policy, the approvals so far and how many are missing), cancel.
 */
export function FlowRunPage() {
  const { id = '' } = useParams();
  const run = useQuery({
    queryKey: ['flow-run', id],
    queryFn: () => api<FlowRun>(`/v1/flow-runs/${id}`),
    // live until it ends; a finished run never changes again
    refetchInterval: (q) => (q.state.data && isFlowRunDone(q.state.data) ? false : POLL_MS),
  });
  return (
    <section>
      <QueryState query={run} what="the flow run">
        {(r) => <FlowRunView run={r} />}
      </QueryState>
    </section>
  );
}

function FlowRunView({ run }: { run: FlowRun }) {
  const { can } = useSession();
  const client = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => api<FlowRun>(`/v1/flow-runs/${run.id}/cancel`, { method: 'POST' }),
    onSuccess: (r) => client.setQueryData(['flow-run', run.id], r),
    onSettled: () => void client.invalidateQueries({ queryKey: ['flow-run', run.id] }),
  });
  const done = isFlowRunDone(run);
  return (
    <>
      <p className="small">
        <Link to={`/flows/${run.flowId}`}>← The flow</Link>
      </p>
      <h1>
        Flow run {shortId(run.id)} <FlowStatusBadge status={run.status} />
      </h1>
      <dl className="facts">
        <dt>Trigger</dt>
        <dd>{run.trigger.type}</dd>
        <dt>Started</dt>
        <dd>{when(run.createdAt)}</dd>
        <dt>Finished</dt>
        <dd>{when(run.completedAt)}</dd>
      </dl>
      {run.error ? (
        <div className="error" role="status">
          <strong>{run.error.code}:</strong> {run.error.message}
        </div>
      ) : null}
      {run.pendingApproval?.policy ? <ApprovalProgress action={run.pendingApproval} /> : null}
      {run.pendingApproval && can('flows:manage') ? <FlowApprovalForm run={run} /> : null}
      {run.pendingApproval && !can('flows:manage') ? (
        <p className="notice">Waiting for approval: {run.pendingApproval.message}</p>
      ) : null}
      {!done && can('flows:manage') ? (
        <div className="actions">
          <button className="danger" type="button" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
            Cancel the flow run
          </button>
        </div>
      ) : null}
      {cancel.error instanceof ApiError && cancel.error.status === 409 ? (
        <p className="notice" role="status">
          The flow run already finished.
        </p>
      ) : (
        <ErrorBox error={cancel.error} title="Could not cancel" />
      )}
      <h2>Trigger data</h2>
      <pre className="json" aria-label="Trigger data" tabIndex={0}>
        {json(run.trigger.input)}
      </pre>
      <h2>Steps</h2>
      <ol className="flow-timeline" aria-label="Steps timeline">
        {run.steps.map((s) => (
          <li key={s.name} className={`flow-step flow-step-${s.status}`}>
            <div className="step-head">
              <h3>
                {s.name} <span className="muted small">({s.type})</span>
              </h3>
              <FlowStatusBadge status={s.status} />
            </div>
            {s.runId ? (
              <p className="small">
                Agent run: <Link to={`/runs/${s.runId}`}>run {shortId(s.runId)}</Link>
              </p>
            ) : null}
            {s.error ? (
              <p className="invalid small">
                <strong>{s.error.code}:</strong> {s.error.message}
              </p>
            ) : null}
            {s.output !== null && s.output !== undefined ? (
              <details>
                <summary>Output</summary>
                <pre className="json" tabIndex={0} aria-label={`Output of ${s.name}`}>
                  {json(s.output)}
                </pre>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
    </>
  );
}
