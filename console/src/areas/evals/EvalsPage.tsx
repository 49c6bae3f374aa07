import type { Eval } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api';
import { DataTable } from '../../components/DataTable';
import { Empty, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';
import { AgentPicker } from './AgentPicker';

/** `/evals?agentId=`: an agent's evals, newest first, and the way to a new one. */
export function EvalsPage() {
  return (
    <section>
      <h1>Evals</h1>
      <p className="muted">
        An eval is a set of cases an agent is scored against; each eval run runs every case as a real, charged run.
      </p>
      <AgentPicker>{(agentId) => <AgentEvals agentId={agentId} />}</AgentPicker>
    </section>
  );
}

function AgentEvals({ agentId }: { agentId: string }) {
  const { can } = useSession();
  const evals = useQuery({
    queryKey: ['evals', agentId],
    queryFn: () => api<{ evals: Eval[]; nextCursor: string | null }>(`/v1/agents/${agentId}/evals?limit=100`),
  });
  return (
    <>
      <p className="actions">
        {can('agents:write') ? (
          <Link className="button" to={`/evals/new?agentId=${agentId}`}>
            New eval
          </Link>
        ) : null}
        <Link className="button" to={`/proposals?agentId=${agentId}`}>
          Proposals
        </Link>
        <Link className="button" to={`/agents/${agentId}/copilot`}>
          Copilot
        </Link>
      </p>
      <QueryState query={evals} what="evals">
        {(d) =>
          d.evals.length === 0 ? (
            <Empty>This agent has no evals yet.</Empty>
          ) : (
            <DataTable label="Evals" columns={['Name', 'Cases', 'Created']}>
              {d.evals.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Link to={`/evals/${e.id}`}>{e.name}</Link>
                  </td>
                  <td>{e.cases.length}</td>
                  <td>{when(e.createdAt)}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </>
  );
}
