import { useEffect, useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Empty, QueryState } from '../../components/States';
import { useAgents } from '../../hooks';

/**
 * The agent a page is about, kept in the address (`?agentId=`) so it can be linked to and reloaded; the
 * first agent when none is named. Renders its children with the chosen agent's id.
 */
export function AgentPicker({ children }: { children: (agentId: string) => React.ReactNode }) {
  const agents = useAgents();
  const [params, setParams] = useSearchParams();
  const id = useId();
  const chosen = params.get('agentId');
  const list = agents.data?.agents ?? [];
  const agentId = list.some((a) => a.id === chosen) ? chosen! : (list[0]?.id ?? null);
  useEffect(() => {
    if (agentId && agentId !== chosen) {
      const next = new URLSearchParams(params);
      next.set('agentId', agentId);
      setParams(next, { replace: true });
    }
  }, [agentId, chosen, params, setParams]);
  return (
    <QueryState query={agents} what="agents">
      {() =>
        !agentId ? (
          <Empty>
            No agents yet: <Link to="/agents">create one</Link> first.
          </Empty>
        ) : (
          <>
            <div className="field picker">
              <label htmlFor={id}>Agent</label>
              <select
                id={id}
                value={agentId}
                onChange={(e) => {
                  const next = new URLSearchParams(params);
                  next.set('agentId', e.target.value);
                  setParams(next);
                }}
              >
                {list.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </div>
            {children(agentId)}
          </>
        )
      }
    </QueryState>
  );
}
