import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, qs } from '../api';
import { JsonEditor, jsonProblem } from '../components/JsonEditor';
import { Empty, ErrorBox, QueryState } from '../components/States';
import { StatusBadge, statusLabel } from '../components/StatusBadge';
import { usd, when } from '../components/format';
import { POLL_MS, useAgentNames, useAgents } from '../hooks';
import { useSession } from '../session';
import { RUN_STATUSES, type Run } from '../types';

export function RunsPage() {
  const { can } = useSession();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const agentId = params.get('agentId') ?? '';
  const [cursor, setCursor] = useState<string | null>(null);
  const agents = useAgents();
  const name = useAgentNames();
  const runs = useQuery({
    queryKey: ['runs', { status, agentId, cursor }],
    queryFn: () =>
      api<{ runs: Run[]; nextCursor: string | null }>(`/v1/runs${qs({ status, agentId, cursor, limit: 25 })}`),
    refetchInterval: POLL_MS,
    placeholderData: keepPreviousData,
  });
  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setCursor(null);
    setParams(next, { replace: true });
  };
  return (
    <section>
      <h1>Runs</h1>
      {can('runs:write') ? <NewRun /> : null}
      <div className="filters" role="group" aria-label="Filters">
        <div className="field">
          <label htmlFor="status-filter">Status</label>
          <select id="status-filter" value={status} onChange={(e) => setFilter('status', e.target.value)}>
            <option value="">Any status</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="agent-filter">Agent</label>
          <select id="agent-filter" value={agentId} onChange={(e) => setFilter('agentId', e.target.value)}>
            <option value="">Any agent</option>
            {agents.data?.agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <QueryState query={runs} what="runs">
        {(data) =>
          data.runs.length === 0 ? (
            <Empty>No runs match.</Empty>
          ) : (
            <>
              <div className="table-wrap" role="region" aria-label="Runs" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Run</th>
                      <th scope="col">Agent</th>
                      <th scope="col">Status</th>
                      <th scope="col">Cost</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.runs.map((r) => (
                      <tr key={r.id}>
                        <td>
                          <Link to={`/runs/${r.id}`}>{r.id.slice(0, 8)}</Link>
                        </td>
                        <td>{name(r.agentId)}</td>
                        <td>
                          <StatusBadge status={r.status} />
                        </td>
                        <td>{usd(r.usage.costUsd)}</td>
                        <td>{when(r.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="actions">
                {cursor ? (
                  <button type="button" onClick={() => setCursor(null)}>
                    Newest
                  </button>
                ) : null}
                {data.nextCursor ? (
                  <button type="button" onClick={() => setCursor(data.nextCursor)}>
                    Older runs
                  </button>
                ) : null}
              </div>
            </>
          )
        }
      </QueryState>
    </section>
  );
}

const EXAMPLE_INPUT = '{\n  "script": [{ "ask": "Who is the audience?" }, { "final": { "draft": "Hello" } }]\n}';

function NewRun() {
  const agents = useAgents();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [agentId, setAgentId] = useState('');
  const [input, setInput] = useState(EXAMPLE_INPUT);
  const create = useMutation({
    mutationFn: (id: string) =>
      api<Run>('/v1/runs', { method: 'POST', json: { agentId: id, input: JSON.parse(input) } }),
    onSuccess: (run) => {
      void client.invalidateQueries({ queryKey: ['runs'] });
      navigate(`/runs/${run.id}`);
    },
  });
  const chosen = agentId || agents.data?.agents[0]?.id || '';
  if (agents.data && agents.data.agents.length === 0) {
    return (
      <p className="notice">
        To start a run, first <Link to="/agents">create an agent</Link>.
      </p>
    );
  }
  return (
    <details className="panel">
      <summary>Start a run</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(chosen);
        }}
      >
        <div className="field">
          <label htmlFor="run-agent">Agent to run</label>
          <select id="run-agent" value={chosen} onChange={(e) => setAgentId(e.target.value)}>
            {agents.data?.agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <JsonEditor label="Input (JSON object)" value={input} onChange={setInput} requireObject rows={6} />
        <ErrorBox error={create.error} title="Could not start the run" />
        <button
          className="primary"
          type="submit"
          disabled={create.isPending || !chosen || jsonProblem(input, true) !== null}
        >
          Start run
        </button>
      </form>
    </details>
  );
}
