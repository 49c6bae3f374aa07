import type { WhatsAppConversationDetail, WhatsAppMessage, WhatsAppRedelivery } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api } from '../../api';
import { ChatThread } from '../../components/ChatThread';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { POLL_MS } from '../../hooks';
import { useSession } from '../../session';

/** One contact's conversation as a chat thread: each reply with its delivery status, a failed one redeliverable. */
export function ThreadPage() {
  const { id = '' } = useParams();
  const thread = useQuery({
    queryKey: ['whatsapp', 'conversation', id],
    queryFn: () => api<WhatsAppConversationDetail>(`/v1/whatsapp/conversations/${id}`),
    refetchInterval: (q) => (q.state.data?.status === 'ended' ? false : POLL_MS),
  });
  return (
    <section>
      <nav className="crumbs" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to="/whatsapp">WhatsApp</Link>
          </li>
          <li aria-current="page">Conversation</li>
        </ol>
      </nav>
      <QueryState query={thread} what="the conversation">
        {(c) => (
          <>
            <h1>
              Contact +{c.waId} <span className="badge">{c.status}</span>
            </h1>
            <p className="small muted">
              Started {when(c.createdAt)}
              {c.endedAt ? ` · ended ${when(c.endedAt)} (${c.endedReason ?? 'ended'})` : ''}
            </p>
            {c.messages.length === 0 ? (
              <Empty>No messages.</Empty>
            ) : (
              <ChatThread
                label="Messages"
                userName={`+${c.waId}`}
                agentName="Agent"
                entries={c.messages.map((m) => ({
                  key: m.id,
                  role: m.role,
                  text: m.text,
                  at: m.createdAt,
                  extra: m.role === 'assistant' ? <ReplyStatus conversationId={c.id} message={m} /> : null,
                }))}
              />
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}

function ReplyStatus({ conversationId, message: m }: { conversationId: string; message: WhatsAppMessage }) {
  const { can } = useSession();
  const client = useQueryClient();
  const redeliver = useMutation({
    mutationFn: () =>
      api<WhatsAppRedelivery>(`/v1/whatsapp/conversations/${conversationId}/messages/${m.id}/redeliver`, {
        method: 'POST',
      }),
    onSettled: () => client.invalidateQueries({ queryKey: ['whatsapp', 'conversation', conversationId] }),
  });
  return (
    <>
      <span data-testid="reply-status">{m.status ?? 'pending'}</span>
      {m.error ? <span className="invalid"> · {m.error}</span> : null}
      {m.runId ? (
        <>
          {' · '}
          <Link to={`/runs/${m.runId}`}>run</Link>
        </>
      ) : null}
      {m.status === 'failed' && can('whatsapp:manage') ? (
        <>
          {' '}
          <button type="button" disabled={redeliver.isPending} onClick={() => redeliver.mutate()}>
            Send again
          </button>
        </>
      ) : null}
      <ErrorBox error={redeliver.error} title="Could not send again" />
    </>
  );
}
