import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api';
import { DataTable } from '../components/DataTable';
import { Empty, ErrorBox, QueryState } from '../components/States';
import { when } from '../components/format';
import { useAgents } from '../hooks';
import { useSession } from '../session';
import type { Agent, Preset } from '../types';

export function AgentsPage() {
  const { can } = useSession();
  const agents = useAgents();
  return (
    <section>
      <h1>Agents</h1>
      {can('agents:write') ? <CreateAgent /> : null}
      <QueryState query={agents} what="agents">
        {(d) =>
          d.agents.length === 0 ? (
            <Empty>No agents yet.</Empty>
          ) : (
            <DataTable label="Agents" columns={['Name', 'Model', 'Version', 'Updated']}>
              {d.agents.map((a) => (
                <tr key={a.id}>
                  <td>
                    <Link to={`/agents/${a.id}`}>{a.name}</Link>
                  </td>
                  <td>
                    <code>{a.modelId}</code>
                  </td>
                  <td>{a.version}</td>
                  <td>{when(a.updatedAt)}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </section>
  );
}

function CreateAgent() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const presets = useQuery({ queryKey: ['presets'], queryFn: () => api<{ presets: Preset[] }>('/v1/presets') });
  const [name, setName] = useState('');
  const [presetId, setPresetId] = useState('general-assistant');
  const create = useMutation({
    mutationFn: () => api<Agent>('/v1/agents', { method: 'POST', json: { name: name.trim(), presetId } }),
    onSuccess: (agent) => {
      void client.invalidateQueries({ queryKey: ['agents'] });
      navigate(`/agents/${agent.id}`);
    },
  });
  const preset = presets.data?.presets.find((p) => p.id === presetId);
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>Create an agent</h2>
      <div className="row">
        <div className="field">
          <label htmlFor="agent-name">Name</label>
          <input id="agent-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="agent-preset">Preset</label>
          <select id="agent-preset" value={presetId} onChange={(e) => setPresetId(e.target.value)}>
            {(presets.data?.presets ?? [{ id: 'general-assistant', name: 'General assistant', description: '' }]).map(
              (p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.id})
                </option>
              ),
            )}
          </select>
        </div>
      </div>
      {preset ? <p className="small muted">{preset.description}</p> : null}
      <ErrorBox error={presets.error} title="Could not load presets" />
      <ErrorBox error={create.error} title="Could not create the agent" />
      <button className="primary" type="submit" disabled={create.isPending || !name.trim()}>
        Create agent
      </button>
    </form>
  );
}
