import type { TutorSession } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api';
import { IssueList } from '../../components/IssueList';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useAgentNames, useAgents } from '../../hooks';
import { useSession } from '../../session';

/** The workspace's tutor sessions, newest first, and a new one with an agent on a topic. */
export function TutorPage() {
  const { can } = useSession();
  const agentName = useAgentNames();
  const sessions = useQuery({
    queryKey: ['tutor', 'sessions'],
    queryFn: () => api<{ sessions: TutorSession[] }>('/v1/tutor/sessions?limit=50'),
  });
  return (
    <section>
      <h1>Tutor</h1>
      <p className="muted">A tutor session is a conversation with an agent on a topic; each message is a run.</p>
      {can('runs:write') ? <StartSession /> : null}
      <h2>Sessions</h2>
      <QueryState query={sessions} what="sessions">
        {(d) =>
          d.sessions.length === 0 ? (
            <Empty>No tutor sessions yet.</Empty>
          ) : (
            <ul className="cards">
              {d.sessions.map((s) => (
                <li key={s.id} className="card">
                  <h3 className="card-title">
                    <Link to={`/tutor/${s.id}`}>{s.topic}</Link> <span className="badge">{s.status}</span>
                  </h3>
                  <p className="small">
                    With {agentName(s.agentId)} · started {when(s.createdAt)}
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

function StartSession() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const agents = useAgents();
  const [agentId, setAgentId] = useState('');
  const [topic, setTopic] = useState('');
  const start = useMutation({
    mutationFn: () =>
      api<TutorSession>('/v1/tutor/sessions', { method: 'POST', json: { agentId, topic: topic.trim() } }),
    onSuccess: (s) => {
      void client.invalidateQueries({ queryKey: ['tutor', 'sessions'] });
      navigate(`/tutor/${s.id}`);
    },
  });
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        start.mutate();
      }}
    >
      <h2>Start a session</h2>
      <div className="row">
        <div className="field">
          <label htmlFor="tutor-agent">Agent</label>
          <select id="tutor-agent" required value={agentId} onChange={(e) => setAgentId(e.target.value)}>
            <option value="">{agents.isPending ? 'Loading agents…' : 'Choose an agent'}</option>
            {(agents.data?.agents ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="tutor-topic">Topic</label>
          <input id="tutor-topic" required value={topic} onChange={(e) => setTopic(e.target.value)} />
        </div>
      </div>
      <ErrorBox error={start.error ?? agents.error} title="Could not start the session" />
      <IssueList error={start.error} />
      <button className="primary" type="submit" disabled={start.isPending || !agentId || !topic.trim()}>
        Start session
      </button>
    </form>
  );
}
