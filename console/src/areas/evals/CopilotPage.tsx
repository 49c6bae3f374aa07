import type { AgentCopilotReply, ConversationMessage, CopilotSession, Proposal } from '@svc/client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, baseHeaders, ApiError, readResponse } from '../../api';
import { ErrorBox, QueryState } from '../../components/States';
import { useSession } from '../../session';
import type { Agent } from '../../types';
import { ProposalCard } from './ProposalCard';
import './evals.css';

/** A fresh Idempotency-Key: 32 hex digits (randomUUID needs a secure context; a console may be served over plain HTTP). */
const newKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

interface Turn {
  role: 'user' | 'assistant';
  text: string;
  proposal?: Proposal | null;
}

/**
 * Asks the copilot with the message's own Idempotency-Key (docs/api/copilots.md): sending the same message
 * again after a failure (a late reply is 503) gets the first answer, never a second run or proposal.
 */
async function ask(agentId: string, body: { message: string; conversationId?: string }, key: string) {
  let res: Response;
  try {
    res = await fetch(`/v1/agents/${agentId}/copilot`, {
      method: 'POST',
      headers: { ...baseHeaders(), 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The service could not be reached', null);
  }
  return readResponse<AgentCopilotReply>(res);
}

/** `/agents/:id/copilot`: a chat about the agent; a change the copilot suggests is a proposal to accept here. */
export function CopilotPage() {
  const { id = '' } = useParams();
  const { can } = useSession();
  const agent = useQuery({ queryKey: ['agent', id], queryFn: () => api<Agent>(`/v1/agents/${id}`) });
  return (
    <section>
      <p>
        <Link to={`/agents/${id}`}>← The agent</Link>
      </p>
      <QueryState query={agent} what="the agent">
        {(a) => (
          <>
            <h1>Copilot for {a.name}</h1>
            <p className="muted">
              Ask about the agent or for a change (say, <q>change the instructions to "Answer in French."</q> or{' '}
              <q>add the tool http_request</q>). A change becomes a proposal; nothing changes until you accept it. Each
              turn is a charged run. · <Link to={`/evals?agentId=${a.id}`}>Evals</Link> ·{' '}
              <Link to={`/proposals?agentId=${a.id}`}>Proposals</Link>
            </p>
            {can('agents:write') ? (
              <Chat agentId={a.id} />
            ) : (
              <p className="notice">Only admins and owners may ask the copilot; you can read its proposals.</p>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}

function Chat({ agentId }: { agentId: string }) {
  // the latest conversation about this agent, so a reload shows where the talk stands
  const history = useQuery({
    queryKey: ['copilot', agentId, 'latest'],
    queryFn: async (): Promise<ConversationMessage[]> => {
      const list = await api<{ sessions: CopilotSession[] }>(`/v1/agents/${agentId}/copilot/sessions?limit=1`);
      const latest = list.sessions.find((s) => s.status === 'active');
      if (!latest) return [];
      const one = await api<CopilotSession>(`/v1/agents/${agentId}/copilot/sessions/${latest.id}`);
      return one.messages ?? [];
    },
    staleTime: Infinity,
  });
  const [turns, setTurns] = useState<Turn[]>([]);
  const [message, setMessage] = useState('');
  const [key, setKey] = useState(newKey);
  const [conversationId, setConversationId] = useState<string | undefined>();
  const send = useMutation({
    mutationFn: (text: string) => ask(agentId, { message: text, conversationId }, key),
    onSuccess: (reply, text) => {
      setTurns((cur) => [
        ...cur,
        { role: 'user', text },
        { role: 'assistant', text: reply.reply, proposal: reply.proposal },
      ]);
      setConversationId(reply.conversationId);
      setMessage('');
      setKey(newKey());
    },
  });
  const earlier: Turn[] = (history.data ?? []).map((m) => ({ role: m.role, text: m.text }));
  const shown = [...earlier, ...turns];
  return (
    <>
      <h2>Conversation</h2>
      <ErrorBox error={history.error} title="Could not load the earlier conversation" />
      {shown.length === 0 ? (
        <p className="empty">No messages yet: ask the copilot something.</p>
      ) : (
        <ol className="transcript" aria-label="Conversation with the copilot">
          {shown.map((t, i) => (
            <li key={i} className={`from-${t.role}`}>
              <span className="sr-only">{t.role === 'user' ? 'You' : 'Copilot'}: </span>
              {t.text}
              {t.proposal ? (
                <div className="proposal-in-chat">
                  <ProposalCard proposal={t.proposal} />
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          if (message.trim()) send.mutate(message.trim());
        }}
      >
        <div className="field">
          <label htmlFor="copilot-message">Message to the copilot</label>
          <textarea
            id="copilot-message"
            rows={3}
            maxLength={10_000}
            value={message}
            onChange={(e) => {
              setMessage(e.target.value);
              // a different message is a different request: a new key
              if (send.isError) setKey(newKey());
            }}
          />
        </div>
        <ErrorBox error={send.error} title="The copilot did not answer" />
        <button className="primary" type="submit" disabled={send.isPending || !message.trim()}>
          {send.isPending ? 'Waiting for the copilot…' : 'Send'}
        </button>
      </form>
    </>
  );
}
