import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { useAgents } from '../../hooks';
import { useSession } from '../../session';
import type { Agent } from '../../types';

/** The project's agents; an agent moved in or out (not a definition change: no new version). */
export function ProjectAgents({ projectId }: { projectId: string }) {
  const { can } = useSession();
  const client = useQueryClient();
  const all = useAgents();
  const [chosen, setChosen] = useState('');
  const inProject = useQuery({
    queryKey: ['agents', 'project', projectId],
    queryFn: () => api<{ agents: Agent[] }>(`/v1/agents?projectId=${projectId}&limit=100`),
  });
  const move = useMutation({
    mutationFn: (m: { agentId: string; projectId: string | null }) =>
      api<Agent>(`/v1/agents/${m.agentId}`, { method: 'PATCH', json: { projectId: m.projectId } }),
    onSuccess: () => {
      setChosen('');
      void client.invalidateQueries({ queryKey: ['agents'] });
    },
  });
  const members = new Set((inProject.data?.agents ?? []).map((a) => a.id));
  const others = (all.data?.agents ?? []).filter((a) => !members.has(a.id));
  const writable = can('agents:write');
  return (
    <>
      <h2>Agents</h2>
      {writable ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen) move.mutate({ agentId: chosen, projectId });
          }}
        >
          <div className="field">
            <label htmlFor="project-agent">Add an agent to this project</label>
            <select id="project-agent" value={chosen} onChange={(e) => setChosen(e.target.value)}>
              <option value="">Choose an agent</option>
              {others.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <button type="submit" disabled={!chosen || move.isPending}>
              Add the agent
            </button>
          </div>
        </form>
      ) : null}
      <ErrorBox error={move.error} title="Could not move the agent" />
      <QueryState query={inProject} what="the project's agents">
        {(d) =>
          d.agents.length === 0 ? (
            <Empty>No agents in this project.</Empty>
          ) : (
            <ul className="list">
              {d.agents.map((a) => (
                <li key={a.id}>
                  <Link to={`/agents/${a.id}`}>{a.name}</Link>{' '}
                  {writable ? (
                    <button
                      type="button"
                      className="link"
                      disabled={move.isPending}
                      onClick={() => move.mutate({ agentId: a.id, projectId: null })}
                    >
                      Take out of the project<span className="sr-only"> ({a.name})</span>
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </>
  );
}
