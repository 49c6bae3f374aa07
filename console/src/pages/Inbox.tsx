import { useQueries, useQuery } from '@tanstack/react-query';
import type { Flow, FlowRun } from '@svc/client';
import { Link } from 'react-router';
import { api } from '../api';
import { ApprovalProgress, waitsOnMe } from '../components/ApprovalProgress';
import { FlowApprovalForm } from '../components/FlowApprovalForm';
import { GateForm } from '../components/GateForm';
import { isReconciliationGate, ReconciliationGate } from '../components/ReconciliationGate';
import { Empty, ErrorBox, Loading } from '../components/States';
import { StatusBadge } from '../components/StatusBadge';
import { shortId, when } from '../components/format';
import { POLL_MS, useAgentNames } from '../hooks';
import { useSession } from '../session';
import { WAITING, type Run } from '../types';

/**
 * Every run and flow run waiting on a person, newest first, polled so it stays live: those waiting on you (a
 * gate or approval step you may answer and have not) apart from those waiting on others (approvals under a
 * policy that does not name you, or that you already gave; a flow approval without a policy when your role
 * may not answer it). A finance reconciliation's gate shows its proposed matches as a table.
 */
export function InboxPage() {
  const { can, me, workspace } = useSession();
  const name = useAgentNames();
  const lists = useQueries({
    queries: WAITING.map((status) => ({
      queryKey: ['runs', { status }],
      queryFn: () => api<{ runs: Run[] }>(`/v1/runs?status=${status}&limit=100`),
      refetchInterval: POLL_MS,
    })),
  });
  const flowRuns = useQuery({
    queryKey: ['waiting-flow-runs'],
    queryFn: () => api<{ flowRuns: FlowRun[] }>('/v1/flow-runs?status=waiting_approval&limit=100'),
    refetchInterval: POLL_MS,
    enabled: can('flows:read'),
  });
  const waitingFlows = flowRuns.data?.flowRuns ?? [];
  const error = lists.find((l) => l.error)?.error ?? flowRuns.error;
  const pending = lists.some((l) => l.isPending) || (can('flows:read') && flowRuns.isPending);
  const runs = lists.flatMap((l) => l.data?.runs ?? []).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const person = { userId: me.user.id, role: workspace.role };
  const mine = runs.filter((r) => waitsOnMe(r.pendingAction, person));
  const others = runs.filter((r) => !waitsOnMe(r.pendingAction, person));
  const mayAnswerFlows = can('flows:manage');
  const myFlows = waitingFlows.filter((r) => waitsOnMe(r.pendingApproval, person, mayAnswerFlows));
  const othersFlows = waitingFlows.filter((r) => !waitsOnMe(r.pendingApproval, person, mayAnswerFlows));
  const any = runs.length + waitingFlows.length > 0;
  return (
    <section>
      <h1>Inbox</h1>
      <p className="muted">
        Runs and flow runs waiting for a person: answer their questions, approve or reject, review their output.
      </p>
      {pending ? <Loading what="Loading waiting runs" /> : null}
      <ErrorBox error={error} title="Could not load the inbox" />
      {!pending && !error && !any ? <Empty>Nothing is waiting for you.</Empty> : null}
      {any ? <h2>Waiting on you</h2> : null}
      {any && !mine.length && !myFlows.length ? <Empty>Nothing is waiting on you.</Empty> : null}
      <RunCards runs={mine} name={name} canWrite={can('runs:write')} />
      <FlowApprovalCards runs={myFlows} canAnswer={mayAnswerFlows} label="Flow approvals waiting on you" />
      {others.length || othersFlows.length ? <h2>Waiting on others</h2> : null}
      <RunCards runs={others} name={name} canWrite={can('runs:write')} />
      <FlowApprovalCards runs={othersFlows} canAnswer={mayAnswerFlows} label="Flow approvals waiting on others" />
    </section>
  );
}

/** One card per waiting run, with its gate's form. */
function RunCards({ runs, name, canWrite }: { runs: Run[]; name: (id: string) => string; canWrite: boolean }) {
  return (
    <ul className="cards">
      {runs.map((run) => (
        <li key={`${run.id}-${run.pendingAction?.id}`} className="card">
          <h2 className="card-title">
            <Link to={`/runs/${run.id}`}>
              {name(run.agentId)} · run {run.id.slice(0, 8)}
            </Link>{' '}
            <StatusBadge status={run.status} />
          </h2>
          <p className="small muted">Created {when(run.createdAt)}</p>
          {run.pendingAction ? <ApprovalProgress action={run.pendingAction} /> : null}
          {!canWrite ? (
            <p>Your role may not answer runs.</p>
          ) : isReconciliationGate(run) ? (
            <ReconciliationGate run={run} />
          ) : (
            <GateForm run={run} />
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * One card per flow run waiting at an approval step: the policy and the approvals so far, and the approve
 * and reject form (the service refuses an answer the policy does not admit, and the form says why).
 */
function FlowApprovalCards({ runs, canAnswer, label }: { runs: FlowRun[]; canAnswer: boolean; label: string }) {
  const flows = useQuery({
    queryKey: ['flows'],
    queryFn: () => api<{ flows: Flow[] }>('/v1/flows?limit=100'),
    enabled: runs.length > 0,
  });
  if (!runs.length) return null;
  const flowName = (id: string) => flows.data?.flows.find((f) => f.id === id)?.name ?? `flow ${shortId(id)}`;
  return (
    <ul className="cards" aria-label={label}>
      {runs.map((run) => (
        <li key={`${run.id}-${run.pendingApproval?.id}`} className="card">
          <h3 className="card-title">
            <Link to={`/flow-runs/${run.id}`}>
              {flowName(run.flowId)} · flow run {shortId(run.id)}
            </Link>
          </h3>
          <p className="small muted">Started {when(run.createdAt)}</p>
          {run.pendingApproval ? <ApprovalProgress action={run.pendingApproval} /> : null}
          {canAnswer ? (
            <FlowApprovalForm run={run} />
          ) : (
            <p>
              {run.pendingApproval?.message} <span className="muted">(your role may not answer flow approvals)</span>
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
