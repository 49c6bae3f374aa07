import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../api';
import { ApprovalProgress, waitsOnMe } from '../components/ApprovalProgress';
import { GateForm } from '../components/GateForm';
import { Empty, ErrorBox, Loading } from '../components/States';
import { StatusBadge } from '../components/StatusBadge';
import { when } from '../components/format';
import { POLL_MS, useAgentNames } from '../hooks';
import { useSession } from '../session';
import { WAITING, type Run } from '../types';

/**
 * Every run waiting on a person, newest first, polled so it stays live: those waiting on you (a gate you
 * may answer and have not) apart from those waiting on others (approvals under a policy that does not
 * name you, or that you already gave).
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
  const error = lists.find((l) => l.error)?.error;
  const pending = lists.some((l) => l.isPending);
  const runs = lists.flatMap((l) => l.data?.runs ?? []).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const person = { userId: me.user.id, role: workspace.role };
  const mine = runs.filter((r) => waitsOnMe(r.pendingAction, person));
  const others = runs.filter((r) => !waitsOnMe(r.pendingAction, person));
  return (
    <section>
      <h1>Inbox</h1>
      <p className="muted">
        Runs waiting for a person: answer their questions, approve or reject, review their output.
      </p>
      {pending ? <Loading what="Loading waiting runs" /> : null}
      <ErrorBox error={error} title="Could not load the inbox" />
      {!pending && !error && runs.length === 0 ? <Empty>Nothing is waiting for you.</Empty> : null}
      {runs.length ? <h2>Waiting on you</h2> : null}
      {runs.length && !mine.length ? <Empty>Nothing is waiting on you.</Empty> : null}
      <RunCards runs={mine} name={name} canWrite={can('runs:write')} />
      {others.length ? <h2>Waiting on others</h2> : null}
      <RunCards runs={others} name={name} canWrite={can('runs:write')} />
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
          {canWrite ? <GateForm run={run} /> : <p>Your role may not answer runs.</p>}
        </li>
      ))}
    </ul>
  );
}
