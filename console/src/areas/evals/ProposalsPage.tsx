import type { Proposal, ProposalStatus } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, qs } from '../../api';
import { MutationStatus } from '../../components/MutationStatus';
import { Empty, QueryState } from '../../components/States';
import { useSession } from '../../session';
import { AgentPicker } from './AgentPicker';
import { ProposalCard } from './ProposalCard';

const STATUS_FILTERS: { value: ProposalStatus | ''; label: string }[] = [
  { value: '', label: 'all' },
  { value: 'open', label: 'open' },
  { value: 'accepted', label: 'accepted' },
  { value: 'rejected', label: 'rejected' },
];

/** `/proposals?agentId=&status=`: an agent's improvement proposals with their diffs; draft one from feedback. */
export function ProposalsPage() {
  return (
    <section>
      <h1>Proposals</h1>
      <p className="muted">
        Suggested changes to an agent, each against the version it was made from; accepting one makes the next version.
      </p>
      <AgentPicker>{(agentId) => <AgentProposals agentId={agentId} />}</AgentPicker>
    </section>
  );
}

function AgentProposals({ agentId }: { agentId: string }) {
  const { can } = useSession();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') ?? '') as ProposalStatus | '';
  const proposals = useQuery({
    queryKey: ['proposals', agentId, status],
    queryFn: () =>
      api<{ proposals: Proposal[]; nextCursor: string | null }>(
        `/v1/agents/${agentId}/proposals${qs({ status, limit: 50 })}`,
      ),
  });
  const draft = useMutation({
    mutationFn: () =>
      api<Proposal>(`/v1/agents/${agentId}/proposals`, { method: 'POST', json: { fromFeedback: true } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['proposals', agentId] }),
  });
  return (
    <>
      <div className="filters">
        <div className="field">
          <label htmlFor="proposal-status">Status</label>
          <select
            id="proposal-status"
            value={status}
            onChange={(e) => {
              const next = new URLSearchParams(params);
              if (e.target.value) next.set('status', e.target.value);
              else next.delete('status');
              setParams(next);
            }}
          >
            {STATUS_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="actions">
        {can('agents:write') ? (
          <button type="button" disabled={draft.isPending} onClick={() => draft.mutate()}>
            Draft from feedback
          </button>
        ) : null}
        <Link className="button" to={`/agents/${agentId}/copilot`}>
          Ask the copilot
        </Link>
      </p>
      <p className="small muted">
        A draft from feedback appends the corrected outputs given as feedback on this agent's runs to its instructions.
      </p>
      <MutationStatus
        mutation={draft}
        failed="Could not draft a proposal"
        done={(d) => <>Drafted a proposal from {d.sourceFeedbackIds.length} corrected feedback.</>}
      />
      <QueryState query={proposals} what="proposals">
        {(d) =>
          d.proposals.length === 0 ? (
            <Empty>No proposals{status ? ` ${status}` : ''} for this agent.</Empty>
          ) : (
            <div className="cards">
              {d.proposals.map((p) => (
                <ProposalCard key={p.id} proposal={p} />
              ))}
            </div>
          )
        }
      </QueryState>
    </>
  );
}
