import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api';
import { Empty, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';
import type { Flow } from './flowApi';
import { TRIGGER_LABELS } from './TriggerFields';
import './flows.css';

/** The workspace's flows, newest first, and the way to a new one. */
export function FlowsPage() {
  const { can } = useSession();
  const flows = useQuery({
    queryKey: ['flows'],
    queryFn: () => api<{ flows: Flow[]; nextCursor: string | null }>('/v1/flows?limit=100'),
  });
  return (
    <section>
      <h1>Flows</h1>
      <p className="muted">A trigger and steps that run in order: agent runs, HTTP requests, approvals, conditions.</p>
      {can('flows:manage') ? (
        <p>
          <Link className="button primary" to="/flows/new">
            New flow
          </Link>
        </p>
      ) : null}
      <QueryState query={flows} what="flows">
        {(d) =>
          d.flows.length === 0 ? (
            <Empty>No flows yet.</Empty>
          ) : (
            <div className="table-wrap" role="region" aria-label="Flows" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Trigger</th>
                    <th scope="col">Steps</th>
                    <th scope="col">Status</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {d.flows.map((f) => (
                    <tr key={f.id}>
                      <td>
                        <Link to={`/flows/${f.id}`}>{f.name}</Link>
                      </td>
                      <td>{TRIGGER_LABELS[f.trigger.type].split(' (')[0]}</td>
                      <td>{f.steps.length}</td>
                      <td>
                        <span className={`badge badge-flow-${f.status}`}>
                          {f.status === 'active' ? 'Active' : 'Paused'}
                        </span>
                      </td>
                      <td>{when(f.updatedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
    </section>
  );
}
