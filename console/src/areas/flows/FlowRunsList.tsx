import { Link } from 'react-router';
import { Empty, QueryState } from '../../components/States';
import { shortId, when } from '../../components/format';
import { POLL_MS } from '../../hooks';
import { FlowStatusBadge } from './FlowBadges';
import { useFlowRuns } from './flowApi';

/** A flow's runs, newest first, polled while the page is open. */
export function FlowRunsList({ flowId }: { flowId: string }) {
  const runs = useFlowRuns(flowId, POLL_MS);
  return (
    <QueryState query={runs} what="the flow's runs">
      {(d) =>
        d.flowRuns.length === 0 ? (
          <Empty>No runs yet.</Empty>
        ) : (
          <div className="table-wrap" role="region" aria-label="Flow runs" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Run</th>
                  <th scope="col">Status</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Started</th>
                  <th scope="col">Finished</th>
                </tr>
              </thead>
              <tbody>
                {d.flowRuns.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <Link to={`/flow-runs/${r.id}`}>Run {shortId(r.id)}</Link>
                    </td>
                    <td>
                      <FlowStatusBadge status={r.status} />
                    </td>
                    <td>{r.trigger.type}</td>
                    <td>{when(r.createdAt)}</td>
                    <td>{when(r.completedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </QueryState>
  );
}
