import type { PhoneAgent } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api';
import { IssueList } from '../../components/IssueList';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { useSession } from '../../session';
import { usePhoneAgents, usePhoneModels, useVoices } from './usePhone';

const PRESETS = [
  { id: 'phone-receptionist', name: 'Receptionist (answers and helps briefly)' },
  { id: 'phone-booking', name: 'Booking agent (offers free slots and books one)' },
];

/** The agents that answer numbers: their voice, model and numbers; a new one with phone:manage and agents:write. */
export function PhoneAgents() {
  const { can } = useSession();
  const agents = usePhoneAgents();
  return (
    <>
      <h2>Phone agents</h2>
      {can('phone:manage') && can('agents:write') ? <CreatePhoneAgent /> : null}
      <QueryState query={agents} what="phone agents">
        {(d) =>
          d.agents.length === 0 ? (
            <Empty>No phone agents yet: a number needs one to answer it.</Empty>
          ) : (
            <ul className="cards">
              {d.agents.map((a: PhoneAgent) => (
                <li key={a.id} className="card">
                  <h3 className="card-title">
                    <Link to={`/agents/${a.id}`}>{a.name}</Link>
                  </h3>
                  <p className="small">
                    {a.presetId} · model <code>{a.modelId}</code> · voice {a.settings.voice ?? 'default'}
                  </p>
                  <p className="small">
                    Numbers: {a.numbers.length === 0 ? 'none' : a.numbers.map((n) => n.e164).join(', ')}
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </>
  );
}

function CreatePhoneAgent() {
  const client = useQueryClient();
  const voices = useVoices();
  const models = usePhoneModels();
  const [name, setName] = useState('');
  const [presetId, setPresetId] = useState(PRESETS[0].id);
  const [modelId, setModelId] = useState('');
  const [voice, setVoice] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api<PhoneAgent>('/v1/phone/agents', {
        method: 'POST',
        json: {
          name: name.trim(),
          presetId,
          ...(modelId ? { modelId } : {}),
          ...(voice ? { settings: { voice } } : {}),
        },
      }),
    onSuccess: () => {
      setName('');
      void client.invalidateQueries({ queryKey: ['phone', 'agents'] });
      void client.invalidateQueries({ queryKey: ['agents'] });
    },
  });
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h3>New phone agent</h3>
      <div className="row">
        <div className="field">
          <label htmlFor="pa-name">Name</label>
          <input id="pa-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="pa-preset">Kind</label>
          <select id="pa-preset" value={presetId} onChange={(e) => setPresetId(e.target.value)}>
            {PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="pa-model">Model</label>
          <select id="pa-model" value={modelId} onChange={(e) => setModelId(e.target.value)}>
            <option value="">The kind's default</option>
            {(models.data?.models ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="pa-voice">Voice</label>
          <select id="pa-voice" value={voice} onChange={(e) => setVoice(e.target.value)}>
            <option value="">The kind's default</option>
            {(voices.data?.voices ?? []).map((v) => (
              <option key={v.id} value={v.id}>
                {v.name} ({v.language}, {v.gender})
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorBox error={create.error ?? voices.error ?? models.error} title="Could not create the agent" />
      <IssueList error={create.error} />
      {create.isSuccess ? (
        <p className="notice" role="status">
          Agent {create.data.name} created.
        </p>
      ) : null}
      <button className="primary" type="submit" disabled={create.isPending || !name.trim()}>
        Create phone agent
      </button>
    </form>
  );
}
