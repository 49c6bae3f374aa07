import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import { DataTable } from '../components/DataTable';
import { JsonEditor, jsonProblem } from '../components/JsonEditor';
import { MutationStatus } from '../components/MutationStatus';
import { Empty, QueryState } from '../components/States';
import { json, when } from '../components/format';
import { useSession } from '../session';
import type { Agent, AgentVersion } from '../types';

export function AgentDetailPage() {
  const { id = '' } = useParams();
  const { can } = useSession();
  const agent = useQuery({ queryKey: ['agent', id], queryFn: () => api<Agent>(`/v1/agents/${id}`) });
  const versions = useQuery({
    queryKey: ['agent', id, 'versions'],
    queryFn: () => api<{ versions: AgentVersion[] }>(`/v1/agents/${id}/versions?limit=100`),
  });
  return (
    <section>
      <p>
        <Link to="/agents">← All agents</Link>
      </p>
      <QueryState query={agent} what="the agent">
        {(a) => (
          <>
            <h1>{a.name}</h1>
            <p className="muted">
              Version {a.version} · model <code>{a.modelId}</code> · {a.presetId ? `preset ${a.presetId}` : 'no preset'}{' '}
              · <Link to={`/runs?agentId=${a.id}`}>its runs</Link> · <Link to={`/agents/${a.id}/copilot`}>copilot</Link>
            </p>
            {can('agents:write') ? (
              <EditAgent key={`${a.id}-${a.version}-${a.name}`} agent={a} />
            ) : (
              <AgentView agent={a} />
            )}
          </>
        )}
      </QueryState>
      <h2>Versions</h2>
      <QueryState query={versions} what="versions">
        {(d) =>
          d.versions.length === 0 ? (
            <Empty>No versions.</Empty>
          ) : (
            <DataTable label="Versions" columns={['Version', 'Model', 'Tools', 'Settings', 'Saved']}>
              {d.versions.map((v) => (
                <tr key={v.version}>
                  <td>{v.version}</td>
                  <td>
                    <code>{v.modelId}</code>
                  </td>
                  <td>{v.tools.join(', ') || '—'}</td>
                  <td>
                    <code className="small">{JSON.stringify(v.settings)}</code>
                  </td>
                  <td>{when(v.createdAt)}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </section>
  );
}

function AgentView({ agent }: { agent: Agent }) {
  return (
    <>
      <h2>Definition</h2>
      <pre className="json">{json({ modelId: agent.modelId, tools: agent.tools, settings: agent.settings })}</pre>
    </>
  );
}

function EditAgent({ agent }: { agent: Agent }) {
  const client = useQueryClient();
  const models = useQuery({ queryKey: ['models'], queryFn: () => api<{ models: { id: string }[] }>('/v1/models') });
  const tools = useQuery({
    queryKey: ['tools'],
    queryFn: () => api<{ tools: { name: string; description: string }[] }>('/v1/tools'),
  });
  const [name, setName] = useState(agent.name);
  const [instructions, setInstructions] = useState(agent.instructions ?? '');
  const [modelId, setModelId] = useState(agent.modelId);
  const [chosenTools, setChosenTools] = useState<string[]>(agent.tools);
  const [settings, setSettings] = useState(json(agent.settings));
  const save = useMutation({
    mutationFn: () =>
      api<Agent>(`/v1/agents/${agent.id}`, {
        method: 'PATCH',
        json: { name: name.trim(), instructions, modelId, tools: chosenTools, settings: JSON.parse(settings) },
      }),
    onSuccess: (a) => {
      client.setQueryData(['agent', agent.id], a);
      void client.invalidateQueries({ queryKey: ['agent', agent.id, 'versions'] });
      void client.invalidateQueries({ queryKey: ['agents'] });
    },
  });
  const toggle = (t: string) => setChosenTools((cur) => (cur.includes(t) ? cur.filter((x) => x !== t) : [...cur, t]));
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h2>Edit</h2>
      <p className="small muted">
        Saving a changed definition makes a new version; runs keep the version they started with.
      </p>
      <div className="field">
        <label htmlFor="edit-name">Name</label>
        <input id="edit-name" required value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="edit-instructions">Instructions</label>
        <textarea
          id="edit-instructions"
          rows={4}
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="edit-model">Model</label>
        <select id="edit-model" value={modelId} onChange={(e) => setModelId(e.target.value)}>
          {(models.data?.models ?? [{ id: agent.modelId }]).map((m) => (
            <option key={m.id} value={m.id}>
              {m.id}
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend>Tools</legend>
        {(tools.data?.tools ?? []).map((t) => (
          <label key={t.name} className="check">
            <input type="checkbox" checked={chosenTools.includes(t.name)} onChange={() => toggle(t.name)} /> {t.name}
          </label>
        ))}
      </fieldset>
      <JsonEditor label="Settings (JSON)" value={settings} onChange={setSettings} requireObject rows={5} />
      <MutationStatus mutation={save} failed="Could not save" done={(d) => <>Saved as version {d.version}.</>} />
      <button className="primary" type="submit" disabled={save.isPending || jsonProblem(settings, true) !== null}>
        Save
      </button>
    </form>
  );
}
