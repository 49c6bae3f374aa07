import type { Proposal } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api';
import { ErrorBox, QueryState } from '../../components/States';
import { json, when } from '../../components/format';
import { useSession } from '../../session';
import type { Agent, AgentVersion } from '../../types';
import { DiffView } from './DiffView';

/** What the agent's definition becomes when the proposal is accepted: the base version with its changes. */
function proposed(base: AgentVersion, p: Proposal) {
  return {
    instructions: p.changes.instructions !== undefined ? p.changes.instructions : base.instructions,
    modelId: p.changes.modelId ?? base.modelId,
    tools: p.changes.tools ?? base.tools,
    // settings merge key by key into the base version's (docs/api/proposals.md)
    settings: { ...base.settings, ...p.changes.settings },
  };
}

const BADGE = { open: 'badge-queued', accepted: 'badge-succeeded', rejected: 'badge-failed' } as const;

const definitionText = (d: { modelId: string; tools: string[]; settings: unknown }) =>
  json({ modelId: d.modelId, tools: d.tools, settings: d.settings });

/** A proposal: its rationale, a diff against its base version, and accept or reject while it is open. */
export function ProposalCard({ proposal: p }: { proposal: Proposal }) {
  const { can } = useSession();
  const client = useQueryClient();
  const base = useQuery({
    queryKey: ['agent', p.agentId, 'versions', p.baseVersion],
    queryFn: () => api<AgentVersion>(`/v1/agents/${p.agentId}/versions/${p.baseVersion}`),
  });
  const settle = () => {
    void client.invalidateQueries({ queryKey: ['proposals', p.agentId] });
    void client.invalidateQueries({ queryKey: ['agent', p.agentId] });
    void client.invalidateQueries({ queryKey: ['agents'] });
  };
  const accept = useMutation({
    mutationFn: () => api<Agent>(`/v1/proposals/${p.id}/accept`, { method: 'POST' }),
    onSuccess: settle,
  });
  const reject = useMutation({
    mutationFn: () => api<Proposal>(`/v1/proposals/${p.id}/reject`, { method: 'POST' }),
    onSuccess: settle,
  });
  const status = accept.isSuccess ? 'accepted' : reject.isSuccess ? 'rejected' : p.status;
  return (
    <article className="card" aria-label={`Proposal of ${when(p.createdAt)}`}>
      <h3 className="card-title">
        Proposal against version {p.baseVersion} <span className={`badge ${BADGE[status]}`}>{status}</span>
      </h3>
      <p className="wrap">{p.rationale}</p>
      <p className="small muted">
        Made {when(p.createdAt)}
        {p.sourceFeedbackIds.length > 0 ? ` from ${p.sourceFeedbackIds.length} corrected feedback` : ''}
      </p>
      <QueryState query={base} what="the base version">
        {(b) => {
          const after = proposed(b, p);
          return (
            <>
              <DiffView label="Definition" before={definitionText(b)} after={definitionText(after)} />
              {b.instructions === undefined || after.instructions === undefined ? (
                <p className="small muted">Instructions are shown to admins and owners only.</p>
              ) : (
                <DiffView label="Instructions" before={b.instructions ?? ''} after={after.instructions ?? ''} />
              )}
            </>
          );
        }}
      </QueryState>
      {status === 'open' && can('agents:write') ? (
        <div className="actions">
          <button
            className="primary"
            type="button"
            disabled={accept.isPending || reject.isPending}
            onClick={() => accept.mutate()}
          >
            Accept
          </button>
          <button type="button" disabled={accept.isPending || reject.isPending} onClick={() => reject.mutate()}>
            Reject
          </button>
        </div>
      ) : null}
      {accept.isSuccess ? (
        <p className="notice" role="status">
          Accepted: <Link to={`/agents/${p.agentId}`}>the agent</Link> is now at version {accept.data.version}.
        </p>
      ) : null}
      {reject.isSuccess ? (
        <p className="notice" role="status">
          Rejected; the agent is unchanged.
        </p>
      ) : null}
      <ErrorBox error={accept.error} title="Could not accept" />
      <ErrorBox error={reject.error} title="Could not reject" />
    </article>
  );
}
